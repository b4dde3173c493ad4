package io.capstream.loadgen.conversation;

import io.capstream.loadgen.workload.Dataset;
import io.capstream.loadgen.workload.DatasetEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * The conversations of a multi-turn {@code --dataset} (issue 29): conversation c replays dataset entry
 * {@code c mod N} (N = the entries held), turn by turn: each turn's new input is the entry's turn (its user messages;
 * the first turn may start with system messages), its {@code max_tokens} the entry's (the ShareGPT gpt turn's
 * length, or the JSONL turn's), null where the entry has none. {@code --requests N} counts requests (turns):
 * conversations are planned until their turns add up to N, the last one shortened. Immutable, thread-safe.
 */
public final class DatasetConversations implements ConversationScript {
    private final Dataset dataset;
    /** first[c] = the first request of conversation c; first[conversations] = the planned requests. */
    private final int[] first;

    private DatasetConversations(Dataset dataset, int[] first) {
        this.dataset = dataset;
        this.first = first;
    }

    /**
     * @param dataset  a multi-turn dataset ({@link Dataset#multiTurn()}); not null
     * @param requests the run's planned requests (turns), &gt;= 1
     * @return the script: the fewest conversations whose turns add up to {@code requests}, the last shortened
     * @throws IllegalArgumentException when the dataset is not multi-turn or {@code requests} &lt; 1
     */
    public static DatasetConversations of(Dataset dataset, int requests) {
        if (!dataset.multiTurn()) {
            throw new IllegalArgumentException("--dataset " + dataset.name() + " has no multi-turn conversation");
        }
        if (requests < 1) {
            throw new IllegalArgumentException("requests must be >= 1, got " + requests);
        }
        List<Integer> starts = new ArrayList<>();
        int planned = 0;
        for (int c = 0; planned < requests; c++) {
            starts.add(planned);
            planned += Math.min(dataset.entry(c).turns().size(), requests - planned);
        }
        int[] first = new int[starts.size() + 1];
        for (int c = 0; c < starts.size(); c++) {
            first[c] = starts.get(c);
        }
        first[starts.size()] = requests;
        return new DatasetConversations(dataset, first);
    }

    /**
     * The requests of an open loop whose {@code --duration} starts a number of conversations ({@code --rate} starts
     * conversations): the turns of conversations 0..conversations-1 added up.
     *
     * @param dataset       a multi-turn dataset; not null
     * @param conversations conversations started, &gt;= 0
     * @param max           the most requests of a run
     * @return their turns, at most {@code max}
     */
    public static int requestsOf(Dataset dataset, int conversations, int max) {
        long sum = 0;
        for (int c = 0; c < conversations && sum < max; c++) {
            sum += Math.max(1, dataset.entry(c).turns().size());
        }
        return (int) Math.min(max, sum);
    }

    /** @return the dataset the conversations replay */
    public Dataset dataset() {
        return dataset;
    }

    /** @return the planned requests: the turns of all conversations */
    public int requests() {
        return first[first.length - 1];
    }

    @Override
    public int conversations() {
        return first.length - 1;
    }

    @Override
    public int turns(int conversation) {
        check(conversation);
        return first[conversation + 1] - first[conversation];
    }

    @Override
    public int firstRequest(int conversation) {
        check(conversation);
        return first[conversation];
    }

    @Override
    public UserTurn userTurn(int conversation, int turn) {
        if (turn < 1 || turn > turns(conversation)) {
            throw new IndexOutOfBoundsException("turn " + turn + " of conversation " + conversation + " (1.."
                    + turns(conversation) + ")");
        }
        DatasetEntry.Turn t = entry(conversation).turns().get(turn - 1);
        List<InputMessage> messages = new ArrayList<>(t.messages().size());
        for (DatasetEntry.Message m : t.messages()) {
            messages.add(new InputMessage(m.role(), m.content()));
        }
        return new UserTurn(messages, t.promptTokens(), t.maxTokens());
    }

    /**
     * @param conversation 0-based
     * @return the dataset entry it replays: {@code entries[conversation mod N]}
     */
    public DatasetEntry entry(int conversation) {
        check(conversation);
        return dataset.entry(conversation);
    }

    /**
     * The planned context of a turn: the new messages of its turns so far plus the answers before it, each counted
     * as its turn's {@code max_tokens} (the entry's own, else {@code defaultMaxTokens}).
     *
     * @param conversation     0-based
     * @param turn             1-based, at most {@link #turns(int)}
     * @param defaultMaxTokens the run's {@code max_tokens} for a turn without its own, tokens
     * @return tokens
     */
    public long plannedContext(int conversation, int turn, int defaultMaxTokens) {
        if (turn < 1 || turn > turns(conversation)) {
            throw new IndexOutOfBoundsException("turn " + turn + " of conversation " + conversation);
        }
        return entry(conversation).contextTokens(turn, defaultMaxTokens);
    }

    /**
     * The request index's conversation: the c with {@code firstRequest(c) <= request < firstRequest(c + 1)}.
     *
     * @param request 0-based, below {@link #requests()}
     * @return its conversation, 0-based
     */
    public int conversationOf(int request) {
        if (request < 0 || request >= requests()) {
            throw new IndexOutOfBoundsException("request " + request + " of " + requests());
        }
        int i = java.util.Arrays.binarySearch(first, 0, first.length - 1, request);
        return i >= 0 ? i : -i - 2;
    }

    private void check(int conversation) {
        if (conversation < 0 || conversation >= conversations()) {
            throw new IndexOutOfBoundsException("conversation " + conversation + " of " + conversations());
        }
    }
}
