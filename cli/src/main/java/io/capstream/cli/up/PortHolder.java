package io.capstream.cli.up;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Which process listens on a TCP port, read from Linux's {@code /proc}: the listening sockets' inodes
 * from {@code net/tcp} and {@code net/tcp6}, then the process whose {@code fd/} holds one of them, and
 * its command line. Used by {@code capstream up} to name what blocks its ports (typically the registry
 * child of an earlier {@code up} that was killed with {@code kill -9}). Finds nothing (empty) where
 * {@code /proc} is missing or the holder belongs to another user. Stateless.
 */
public final class PortHolder {
    /** Longest command line kept, characters. */
    static final int MAX_COMMAND = 300;
    private static final String LISTEN = "0A";

    private PortHolder() {
    }

    /**
     * A process that listens on the port.
     *
     * @param pid     its process id
     * @param command its command line, arguments separated by spaces, at most {@value #MAX_COMMAND}
     *                characters (longer ones end in "..."); empty when unreadable
     * @param parentPid     its parent's process id ({@code /proc/<pid>/stat}); 0 when unknown, 1 for an orphan
     * @param parentCommand the parent's command line as {@code command}; empty when unknown or unreadable
     */
    public record Holder(long pid, String command, long parentPid, String parentCommand) {
        /**
         * A holder whose parent is not known.
         *
         * @param pid     its process id
         * @param command its command line (see the record)
         */
        public Holder(long pid, String command) {
            this(pid, command, 0, "");
        }

        /** @return whether it looks like the Apicurio Registry child that {@code capstream up} starts */
        public boolean isApicurioRegistry() {
            return command.contains("apicurio-registry");
        }

        /** @return whether its parent process is alive and a capstream command (a running {@code capstream up}) */
        public boolean parentIsCapstream() {
            return parentPid > 1 && parentCommand.contains("capstream");
        }
    }

    /**
     * @param port TCP port, 1..65535
     * @return the process listening on it on this machine, if {@code /proc} tells
     */
    public static Optional<Holder> find(int port) {
        return find(port, Path.of("/proc"));
    }

    /**
     * @param port     TCP port
     * @param procRoot the proc file system's root ({@code /proc}; a directory of the same layout in tests)
     * @return the process listening on {@code port}, if found
     */
    static Optional<Holder> find(int port, Path procRoot) {
        Set<String> sockets = new HashSet<>();
        for (String table : List.of("tcp", "tcp6")) {
            sockets.addAll(listeningInodes(procRoot.resolve("net").resolve(table), port));
        }
        if (sockets.isEmpty()) {
            return Optional.empty();
        }
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(procRoot, p -> p.getFileName().toString().matches("\\d+"))) {
            for (Path proc : procs) {
                if (holdsOne(proc.resolve("fd"), sockets)) {
                    long parent = parentPid(proc);
                    return Optional.of(new Holder(Long.parseLong(proc.getFileName().toString()), command(proc), parent,
                            parent > 0 ? command(procRoot.resolve(Long.toString(parent))) : ""));
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /** @return {@code socket:[inode]} of every socket listening on {@code port} in one {@code net/tcp*} table */
    static Set<String> listeningInodes(Path table, int port) {
        Set<String> out = new HashSet<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(table, StandardCharsets.US_ASCII);
        } catch (IOException | RuntimeException e) {
            return out;
        }
        String hexPort = String.format(":%04X", port);
        for (String line : lines.subList(Math.min(1, lines.size()), lines.size())) {
            String[] f = line.trim().split("\\s+");
            if (f.length > 9 && f[1].toUpperCase().endsWith(hexPort) && LISTEN.equals(f[3]) && !"0".equals(f[9])) {
                out.add("socket:[" + f[9] + "]");
            }
        }
        return out;
    }

    private static boolean holdsOne(Path fdDir, Set<String> sockets) {
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(fdDir)) {
            for (Path fd : fds) {
                try {
                    if (sockets.contains(Files.readSymbolicLink(fd).toString())) {
                        return true;
                    }
                } catch (IOException | UnsupportedOperationException e) {
                    // closed meanwhile, or not a link
                }
            }
        } catch (IOException | RuntimeException e) {
            // another user's process (no permission), or gone
        }
        return false;
    }

    /** @return the parent's pid from {@code stat} (the field after the command name's closing parenthesis), or 0 */
    private static long parentPid(Path proc) {
        try {
            String stat = Files.readString(proc.resolve("stat"), StandardCharsets.UTF_8);
            String[] f = stat.substring(stat.lastIndexOf(')') + 1).trim().split("\\s+");
            return f.length > 1 ? Long.parseLong(f[1]) : 0;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    private static String command(Path proc) {
        try {
            byte[] raw = Files.readAllBytes(proc.resolve("cmdline"));
            String cmd = new String(raw, StandardCharsets.UTF_8).replace('\0', ' ').strip();
            return cmd.length() > MAX_COMMAND ? cmd.substring(0, MAX_COMMAND - 3) + "..." : cmd;
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /**
     * The sentence {@code capstream up} adds when a port it needs is taken.
     *
     * @param holder the process found on the port, or null when none was found
     * @return e.g. {@code " It is held by PID 4242 (java ... apicurio-registry-app-2.6.13-runner.jar),
     *         probably the schema registry of an earlier `capstream up` that was killed: stop it with
     *         `kill 4242`."}, or, when its parent is a running capstream, that it is that stack's registry (not to be
     *         killed); an empty string for null
     */
    public static String describe(Holder holder) {
        if (holder == null) {
            return "";
        }
        String who = " It is held by PID " + holder.pid() + (holder.command().isEmpty() ? "" : " (" + holder.command() + ")");
        if (holder.isApicurioRegistry() && holder.parentIsCapstream()) {
            // a running stack's registry, not an orphan: killing it would break that stack
            return who + ", the schema registry of a running capstream (PID " + holder.parentPid() + ": "
                    + holder.parentCommand() + "): use that stack, or stop it (Ctrl-C in its terminal, or `kill "
                    + holder.parentPid() + "`).";
        }
        if (holder.isApicurioRegistry()) {
            return who + ", probably the schema registry of an earlier `capstream up` that was killed (an orphan):"
                    + " stop it with `kill " + holder.pid() + "`.";
        }
        return who + ".";
    }
}
