/**
 * Statistics shared by the aggregator and the simulated engine: {@link io.capstream.schemas.stats.NearestRank},
 * the one percentile rule of spec §8.1. The load generator outside its simulated engine computes no statistic.
 */
package io.capstream.schemas.stats;
