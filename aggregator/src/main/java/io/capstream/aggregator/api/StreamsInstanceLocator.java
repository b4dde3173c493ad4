package io.capstream.aggregator.api;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.state.HostInfo;

/**
 * {@link InstanceLocator} from Kafka Streams' metadata of the application's members
 * ({@link KafkaStreams#queryMetadataForKey}, {@link KafkaStreams#streamsMetadataForStore}); every member
 * advertises its HTTP address as {@code application.server}. Only active tasks count (no standby
 * replicas are queried). Not ready while Streams is not RUNNING.
 */
public final class StreamsInstanceLocator implements InstanceLocator {
    private static final Serializer<String> KEYS = Serdes.String().serializer();

    private final KafkaStreams streams;
    private final AdvertisedUrl self;

    /**
     * @param streams the application, configured with {@code application.server = self.endpoint()}; not null
     * @param self    this instance's address; not null
     */
    public StreamsInstanceLocator(KafkaStreams streams, AdvertisedUrl self) {
        this.streams = Objects.requireNonNull(streams, "streams");
        this.self = Objects.requireNonNull(self, "self");
    }

    @Override
    public Optional<AdvertisedUrl> remoteOwner(String store, String key) {
        requireRunning();
        KeyQueryMetadata md = streams.queryMetadataForKey(store, key, KEYS);
        HostInfo active = md == null ? null : md.activeHost();
        if (md == null || KeyQueryMetadata.NOT_AVAILABLE.equals(md) || active == null
                || HostInfo.unavailable().equals(active)) {
            throw new QueryService.NotReadyException("the instance owning key " + key + " of " + store
                    + " is not known now (rebalancing)", null);
        }
        return self.is(active) ? Optional.empty() : Optional.of(AdvertisedUrl.of(active));
    }

    @Override
    public StoreHosts hosts(String store) {
        requireRunning();
        boolean local = false;
        TreeMap<String, AdvertisedUrl> peers = new TreeMap<>();
        for (StreamsMetadata m : streams.streamsMetadataForStore(store)) {
            if (!m.stateStoreNames().contains(store)) {
                continue; // a standby replica only
            }
            if (self.is(m.hostInfo())) {
                local = true;
            } else if (!HostInfo.unavailable().equals(m.hostInfo())) {
                AdvertisedUrl peer = AdvertisedUrl.of(m.hostInfo());
                peers.put(peer.endpoint(), peer);
            }
        }
        return new StoreHosts(local, List.copyOf(peers.values()));
    }

    private void requireRunning() {
        KafkaStreams.State state = streams.state();
        if (state != KafkaStreams.State.RUNNING) {
            throw new QueryService.NotReadyException("Kafka Streams is " + state + ", not RUNNING", null);
        }
    }
}
