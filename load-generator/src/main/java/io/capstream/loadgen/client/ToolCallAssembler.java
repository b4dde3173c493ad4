package io.capstream.loadgen.client;

import java.util.ArrayList;
import java.util.List;

/**
 * Assembles a streamed answer's tool-call deltas into its {@link ToolCall}s (issue 29), in the order the calls
 * started. A delta belongs to:
 * <ul>
 * <li>with an {@code index}: the call with that index (a new call when none has it, or when the one that has it
 * already has another id: some servers number every call 0);</li>
 * <li>without an {@code index} but with an {@code id}: the call with that id, else a new call;</li>
 * <li>with neither: the call started last (servers that send the id on the first delta only), or a new call when
 * none started yet or when the delta names a function while the last call already has a name (servers that send
 * each call whole, without index or id, several in one chunk: Gemini's OpenAI-compatible endpoint).</li>
 * </ul>
 * A call keeps the first id it gets ({@code call_<n>}, n its 0-based position, when the server sent none); name
 * fragments are appended (a fragment equal to the name so far is a repeat and is ignored); argument fragments are
 * appended as they came. A delta with no non-empty id, name or arguments is ignored. Not thread-safe: one
 * instance per request.
 */
final class ToolCallAssembler {
    private final List<Call> calls = new ArrayList<>(2);

    /** One call being assembled. */
    private static final class Call {
        final int index;
        String id;
        final StringBuilder name = new StringBuilder();
        final StringBuilder arguments = new StringBuilder();

        Call(int index, String id) {
            this.index = index;
            this.id = id;
        }
    }

    /**
     * Adds one delta.
     *
     * @param index             the call's index, or -1 when the delta has none
     * @param id                the call's id, or null/empty when absent
     * @param name              the function's name or a fragment of it, or null/empty when absent
     * @param argumentsFragment the next fragment of the arguments, or null/empty when absent
     */
    void delta(int index, String id, String name, String argumentsFragment) {
        String callId = id == null || id.isEmpty() ? null : id;
        boolean hasName = name != null && !name.isEmpty();
        boolean hasArguments = argumentsFragment != null && !argumentsFragment.isEmpty();
        if (callId == null && !hasName && !hasArguments) {
            return;
        }
        Call call = callFor(index, callId, hasName);
        if (call.id == null) {
            call.id = callId;
        }
        if (hasName && !call.name.toString().equals(name)) {
            call.name.append(name);
        }
        if (hasArguments) {
            call.arguments.append(argumentsFragment);
        }
    }

    private Call callFor(int index, String id, boolean hasName) {
        if (index >= 0) {
            for (int i = calls.size() - 1; i >= 0; i--) {
                Call c = calls.get(i);
                if (c.index == index) {
                    if (id != null && c.id != null && !c.id.equals(id)) {
                        break; // another call under a reused index
                    }
                    return c;
                }
            }
            return start(index, id);
        }
        if (id != null) {
            for (Call c : calls) {
                if (id.equals(c.id)) {
                    return c;
                }
            }
            return start(-1, id);
        }
        Call last = calls.isEmpty() ? null : calls.get(calls.size() - 1);
        return last == null || hasName && last.name.length() > 0 ? start(-1, null) : last;
    }

    private Call start(int index, String id) {
        Call c = new Call(index, id);
        calls.add(c);
        return c;
    }

    /** @return the number of tool calls started so far */
    int size() {
        return calls.size();
    }

    /** @return the tool calls in the order they started (a new immutable list); empty when none */
    List<ToolCall> toolCalls() {
        List<ToolCall> out = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            Call c = calls.get(i);
            out.add(new ToolCall(c.id != null ? c.id : "call_" + i, c.name.toString(), c.arguments.toString()));
        }
        return List.copyOf(out);
    }
}
