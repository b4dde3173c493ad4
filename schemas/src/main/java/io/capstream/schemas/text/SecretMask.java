package io.capstream.schemas.text;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.IndexedRecord;

/**
 * The secrets one run or command was given (API keys, credential header values, URL passwords), masked as
 * {@value Redaction#MASK} wherever text leaves capstream: in a string ({@link #apply(String)}) and in every string
 * of an Avro record about to be sent ({@link #apply(IndexedRecord)}), together with the {@code user:password@} of
 * any URL ({@link Redaction#urls}). Values shorter than {@value Redaction#MIN_SECRET_LENGTH} characters are not
 * masked (they would mask ordinary words). Immutable, thread-safe.
 */
public final class SecretMask {
    /** No secrets: only URL user-info is masked. */
    public static final SecretMask NONE = new SecretMask(List.of());
    private final List<String> secrets;

    private SecretMask(List<String> secrets) {
        this.secrets = secrets;
    }

    /**
     * @param secrets the values to mask; nulls and values shorter than {@value Redaction#MIN_SECRET_LENGTH}
     *                characters are dropped; not null
     * @return the mask
     */
    public static SecretMask of(Collection<String> secrets) {
        Set<String> kept = new LinkedHashSet<>();
        for (String s : secrets) {
            if (s != null && s.length() >= Redaction.MIN_SECRET_LENGTH) {
                kept.add(s);
            }
        }
        return kept.isEmpty() ? NONE : new SecretMask(List.copyOf(kept));
    }

    /**
     * @param other another mask; not null
     * @return a mask with the secrets of both
     */
    public SecretMask and(SecretMask other) {
        List<String> both = new ArrayList<>(secrets);
        both.addAll(other.secrets);
        return of(both);
    }

    /** @return whether no secret value is known (URL user-info is masked all the same) */
    public boolean isEmpty() {
        return secrets.isEmpty();
    }

    /** @return how many secret values are masked */
    public int size() {
        return secrets.size();
    }

    /**
     * @param text any text; may be null
     * @return the text with every secret and every URL's user-info masked; null stays null
     */
    public String apply(String text) {
        return apply(text, false);
    }

    /**
     * @param text any text; may be null
     * @param cut  whether the text may have been cut short (a start of a secret at its end is masked too)
     * @return the text with every secret and every URL's user-info masked; null stays null
     */
    public String apply(String text, boolean cut) {
        return Redaction.text(text, secrets, cut);
    }

    /**
     * Masks every string in a record in place: its string fields, those of nested records, the elements of its
     * lists and the keys and values of its maps (a list or map that changes is replaced by a copy).
     *
     * @param record an Avro record about to leave the process; may be null
     * @param <R>    its type
     * @return the same record, masked
     */
    public <R extends IndexedRecord> R apply(R record) {
        if (record != null) {
            maskRecord(record);
        }
        return record;
    }

    private void maskRecord(IndexedRecord record) {
        int fields = record.getSchema().getFields().size();
        for (int i = 0; i < fields; i++) {
            Object v = record.get(i);
            Object m = mask(v);
            if (m != v) {
                record.put(i, m);
            }
        }
    }

    /** @return the masked value: the same object when nothing changed (records are masked in place) */
    private Object mask(Object v) {
        if (v instanceof CharSequence cs) {
            String s = cs.toString();
            String m = apply(s);
            return m.equals(s) ? v : m;
        }
        if (v instanceof IndexedRecord r) {
            maskRecord(r);
            return v;
        }
        if (v instanceof List<?> list) {
            return maskList(list);
        }
        if (v instanceof Map<?, ?> map) {
            return maskMap(map);
        }
        return v;
    }

    private Object maskList(List<?> list) {
        if (list.isEmpty() || list.get(0) instanceof Number) {
            return list; // the chunk gaps and token counts: nothing to mask, skipped on the hot path
        }
        List<Object> out = null;
        for (int i = 0; i < list.size(); i++) {
            Object e = list.get(i);
            Object m = mask(e);
            if (m != e && out == null) {
                out = new ArrayList<>(list.subList(0, i));
            }
            if (out != null) {
                out.add(m);
            }
        }
        return out == null ? list : out;
    }

    private Object maskMap(Map<?, ?> map) {
        boolean changed = false;
        Map<Object, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : map.entrySet()) {
            Object k = mask(e.getKey());
            Object v = mask(e.getValue());
            changed |= k != e.getKey() || v != e.getValue();
            out.put(k, v);
        }
        return changed ? out : map;
    }

    @Override
    public String toString() {
        return "SecretMask[" + secrets.size() + " hidden]";
    }
}
