package io.capstream.cli.check;

import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.IModelTransformer;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * What {@code capstream check --help} shows of the options it shares with {@code run}: {@code --endpoint} with the
 * two values check accepts (chat, completions), and the built-in engine's {@code --sim-*} options hidden (they still
 * work; the description points to {@code capstream sim --help}). The options keep their order and their bindings.
 */
public final class CheckHelp implements IModelTransformer {
    /** The {@code --endpoint} values check accepts. */
    static final String ENDPOINTS = "chat|completions";

    /**
     * @param spec the check command's model, built from its annotations; not null
     * @return the same model, its {@code --endpoint} and {@code --sim-*} options replaced
     */
    @Override
    public CommandSpec transform(CommandSpec spec) {
        List<OptionSpec> options = new ArrayList<>(spec.options());
        options.forEach(spec::remove);
        for (OptionSpec o : options) {
            String name = o.longestName();
            if (name.startsWith("--sim-")) {
                spec.addOption(OptionSpec.builder(o).hidden(true).build());
            } else if (name.equals("--endpoint")) {
                spec.addOption(OptionSpec.builder(o).paramLabel(ENDPOINTS).description("chat: POST"
                        + " <base>/chat/completions (the reference); completions: POST <base>/completions. The other"
                        + " endpoints of 'capstream run' are not checked. Default: chat.").build());
            } else {
                spec.addOption(o);
            }
        }
        return spec;
    }
}
