package io.capstream.loadgen.selfcheck;

import com.sun.management.GarbageCollectionNotificationInfo;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;

/**
 * Counts the JVM's garbage collections between {@link #start()} and {@link #stop()} from the GC
 * notifications: stop-the-world pauses (count, total and longest duration) apart from the
 * concurrent cycles of ZGC and Shenandoah (beans named "... Cycles"), which take CPU but pause
 * nothing. One instance per run; not reusable.
 */
final class GcMonitor implements NotificationListener {
    private final List<NotificationEmitter> emitters = new ArrayList<>();
    private final LongAdder pauses = new LongAdder();
    private final DoubleAdder pauseMs = new DoubleAdder();
    private final DoubleAdder concurrentMs = new DoubleAdder();
    private volatile double pauseMaxMs;
    private final String collectors;

    GcMonitor() {
        List<String> names = new ArrayList<>();
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            names.add(b.getName());
        }
        collectors = String.join(", ", names);
    }

    /** Subscribes to every collector's notifications. */
    void start() {
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (b instanceof NotificationEmitter e) {
                e.addNotificationListener(this, null, null);
                emitters.add(e);
            }
        }
    }

    /** Unsubscribes; the counts are final afterwards. */
    void stop() {
        for (NotificationEmitter e : emitters) {
            try {
                e.removeNotificationListener(this);
            } catch (ListenerNotFoundException ignored) {
                // already removed
            }
        }
        emitters.clear();
    }

    @Override
    public void handleNotification(Notification n, Object handback) {
        if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
            return;
        }
        GarbageCollectionNotificationInfo info = GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
        record(info.getGcName(), info.getGcInfo().getDuration());
    }

    /**
     * @param gcName     the collector bean's name ("ZGC Pauses", "ZGC Cycles", "G1 Young Generation", ...)
     * @param durationMs the collection's duration, ms
     */
    synchronized void record(String gcName, double durationMs) {
        if (isConcurrent(gcName)) {
            concurrentMs.add(durationMs);
            return;
        }
        pauses.increment();
        pauseMs.add(durationMs);
        pauseMaxMs = Math.max(pauseMaxMs, durationMs);
    }

    /** @return whether the bean counts concurrent cycles rather than pauses (ZGC/Shenandoah "Cycles") */
    static boolean isConcurrent(String gcName) {
        return gcName.endsWith("Cycles") || gcName.equals("G1 Concurrent GC");
    }

    /** @return collector bean names, comma-separated */
    String collectors() {
        return collectors;
    }

    long pauses() {
        return pauses.sum();
    }

    double pauseMs() {
        return pauseMs.sum();
    }

    double pauseMaxMs() {
        return pauseMaxMs;
    }

    double concurrentMs() {
        return concurrentMs.sum();
    }
}
