package dev.cellgate.core.deploy.bindings;

import io.vertx.core.json.JsonArray;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/** The manifest's {@code bindings} array: decoded strictly (known types, known fields, one binding per name). */
public final class Bindings {
    /** Any non-empty name without control characters: env is a plain object, env["MY-VAR"] works on workerd too. */
    private static final Pattern NAME = Pattern.compile("[^\\p{Cntrl}]+");

    private static final Map<String, BiFunction<String, StrictJson, Binding>> DECODERS = Map.of(
            PlainTextBinding.TYPE, PlainTextBinding::decode,
            SecretTextBinding.TYPE, SecretTextBinding::decode,
            DurableObjectNamespaceBinding.TYPE, DurableObjectNamespaceBinding::decode,
            KvNamespaceBinding.TYPE, KvNamespaceBinding::decode,
            R2BucketBinding.TYPE, R2BucketBinding::decode,
            D1DatabaseBinding.TYPE, D1DatabaseBinding::decode,
            QueueProducerBinding.TYPE, QueueProducerBinding::decode,
            WorkflowBinding.TYPE, WorkflowBinding::decode,
            ServiceBinding.TYPE, ServiceBinding::decode,
            AssetsBinding.TYPE, AssetsBinding::decode);

    /** Every type tag the manifest schema knows. */
    public static final Set<String> TYPES = Set.copyOf(DECODERS.keySet());

    private Bindings() {
    }

    static void requireName(String name) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("binding name '" + name + "' must be a non-empty name without control characters");
        }
    }

    public static JsonArray encode(List<Binding> bindings) {
        JsonArray a = new JsonArray();
        bindings.forEach(b -> a.add(b.toJson()));
        return a;
    }

    /** @throws IllegalArgumentException naming the entry, its field, or a type this build does not know */
    public static List<Binding> decode(JsonArray array) {
        List<Binding> out = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            StrictJson f = StrictJson.of(array.getValue(i), "bindings[" + i + "]");
            String type = f.text("type");
            String name = f.text("name");
            BiFunction<String, StrictJson, Binding> decoder = DECODERS.get(type);
            if (decoder == null) {
                throw new IllegalArgumentException("binding " + name + " has type '" + type
                        + "', which this version of cellgate does not know (written by a newer deploy-tool?)");
            }
            out.add(decoder.apply(name, new StrictJson(array.getJsonObject(i), "binding " + name + " (" + type + ")")));
        }
        return checkUnique(out);
    }

    /** Two bindings of one name would be one env entry silently shadowing the other. */
    public static List<Binding> checkUnique(List<Binding> bindings) {
        Set<String> seen = new HashSet<>();
        for (Binding b : bindings) {
            if (!seen.add(b.name())) {
                throw new IllegalArgumentException("binding name " + b.name() + " is used twice");
            }
        }
        return List.copyOf(bindings);
    }
}
