package io.capstream.aggregator.runtime;

import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.StoreBuilder;

/**
 * A {@link StoreBuilder} of a store that wraps the store another builder makes (a write-behind or commit-hook layer
 * over a Kafka Streams key-value store): logging, caching, the changelog's configuration and the name are the inner
 * builder's, and {@link #build()} wraps what the inner builder builds. Used by the stores that do work just before each
 * commit ({@code WindowAggregateStore}, {@code CommitHookStore}, {@code ProgressStore}).
 *
 * @param <I> the inner store's type
 * @param <S> the wrapping store's type
 */
public final class WrappingStoreBuilder<I extends StateStore, S extends StateStore> implements StoreBuilder<S> {
    private final StoreBuilder<I> inner;
    private final Function<I, S> wrap;

    /**
     * @param inner the builder of the store below, with its settings; not null
     * @param wrap  makes the wrapping store around a built inner store; not null
     */
    public WrappingStoreBuilder(StoreBuilder<I> inner, Function<I, S> wrap) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.wrap = Objects.requireNonNull(wrap, "wrap");
    }

    @Override
    public StoreBuilder<S> withCachingEnabled() {
        inner.withCachingEnabled();
        return this;
    }

    @Override
    public StoreBuilder<S> withCachingDisabled() {
        inner.withCachingDisabled();
        return this;
    }

    @Override
    public StoreBuilder<S> withLoggingEnabled(Map<String, String> config) {
        inner.withLoggingEnabled(config);
        return this;
    }

    @Override
    public StoreBuilder<S> withLoggingDisabled() {
        inner.withLoggingDisabled();
        return this;
    }

    @Override
    public S build() {
        return wrap.apply(inner.build());
    }

    @Override
    public Map<String, String> logConfig() {
        return inner.logConfig();
    }

    @Override
    public boolean loggingEnabled() {
        return inner.loggingEnabled();
    }

    @Override
    public String name() {
        return inner.name();
    }
}
