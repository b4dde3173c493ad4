package io.capstream.aggregator.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Which aggregator instance holds what, for the HTTP API of several instances sharing one Kafka Streams
 * application id: the owner of a key (keyed lookups are forwarded to it) and the instances holding
 * partitions of a store (range queries merge their answers). Implementations throw
 * {@link QueryService.NotReadyException} while this is unknown (e.g. during a rebalance).
 */
public interface InstanceLocator {
    /**
     * @param store the store's name; not null
     * @param key   the key (a String key, serialized with UTF-8 as the store's changelog does); not null
     * @return the owning instance's address, or empty when this instance owns the key
     * @throws QueryService.NotReadyException while the owner is not known
     */
    Optional<AdvertisedUrl> remoteOwner(String store, String key);

    /**
     * @param store the store's name; not null
     * @return whether this instance holds partitions of the store, and the other instances that do
     * @throws QueryService.NotReadyException while the assignment is not known
     */
    StoreHosts hosts(String store);

    /**
     * The instances holding a store.
     *
     * @param local whether this instance holds at least one of the store's partitions
     * @param peers the other instances holding some, by address; not null
     */
    record StoreHosts(boolean local, List<AdvertisedUrl> peers) {
        /** Copies. */
        public StoreHosts {
            peers = List.copyOf(Objects.requireNonNull(peers, "peers"));
        }
    }

    /** @return the locator of a lone instance: it owns every key and holds every store */
    static InstanceLocator alone() {
        return new InstanceLocator() {
            @Override
            public Optional<AdvertisedUrl> remoteOwner(String store, String key) {
                return Optional.empty();
            }

            @Override
            public StoreHosts hosts(String store) {
                return new StoreHosts(true, List.of());
            }
        };
    }
}
