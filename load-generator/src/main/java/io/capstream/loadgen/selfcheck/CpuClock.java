package io.capstream.loadgen.selfcheck;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads the CPU clocks the self-check compares: the process's CPU time, given threads' CPU time,
 * and the machine's busy and total jiffies from {@code /proc/stat} (Linux). Every reading that the
 * platform does not offer is -1.
 */
final class CpuClock {
    private static final Path PROC_STAT = Path.of("/proc/stat");
    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final OperatingSystemMXBean os = ManagementFactory.getOperatingSystemMXBean();

    /** @return CPU time of the whole process, ns, or -1 */
    long processCpuNs() {
        if (os instanceof com.sun.management.OperatingSystemMXBean sun) {
            return sun.getProcessCpuTime();
        }
        return -1;
    }

    /**
     * @param ts threads
     * @return each thread's CPU time, ns (-1 where unknown), in the order given
     */
    long[] threadCpuNs(List<Thread> ts) {
        long[] r = new long[ts.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = threads.isThreadCpuTimeSupported() ? threads.getThreadCpuTime(ts.get(i).getId()) : -1;
        }
        return r;
    }

    /**
     * @return {busy, total} jiffies of all cores from the first line of /proc/stat (busy = total −
     *         idle − iowait), or null when it cannot be read
     */
    long[] machineJiffies() {
        try {
            List<String> lines = Files.readAllLines(PROC_STAT);
            return parseCpuLine(lines.isEmpty() ? "" : lines.get(0));
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * @param line the aggregate line of /proc/stat: {@code cpu user nice system idle iowait irq softirq steal ...}
     * @return {busy, total} jiffies (guest time is already in user and is not counted twice), or null
     */
    static long[] parseCpuLine(String line) {
        String[] p = line.trim().split("\\s+");
        if (p.length < 5 || !p[0].equals("cpu")) {
            return null;
        }
        long total = 0;
        int n = Math.min(p.length, 9); // user nice system idle iowait irq softirq steal
        for (int i = 1; i < n; i++) {
            total += Long.parseLong(p[i]);
        }
        long idle = Long.parseLong(p[4]) + (p.length > 5 ? Long.parseLong(p[5]) : 0);
        return new long[] {total - idle, total};
    }
}
