package dev.meshbench.istioconfig;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Finds the fields a fabric8 model object did not recognise. fabric8's models do not fail on an unknown field: they
 * keep it in the object's {@code additionalProperties} map. This walks a deserialized resource's object graph by its
 * getters (those returning fabric8 model objects, lists or maps; {@code java.*} values and enums end the walk) and
 * reports every non-empty {@code getAdditionalProperties()} as {@code path: unknown field (not in Class)}.
 */
final class UnknownFieldFinder {

    private final List<String> found = new ArrayList<>();
    private final Set<Object> seen = Collections.newSetFromMap(new IdentityHashMap<>());

    private UnknownFieldFinder() {
    }

    /** Every unknown field under {@code model}, as {@code spec.replicaz: unknown field (not in DeploymentSpec)}. */
    static List<String> find(Object model) {
        UnknownFieldFinder finder = new UnknownFieldFinder();
        finder.walk(model, "");
        return finder.found;
    }

    private void walk(Object value, String path) {
        if (value == null) {
            return;
        }
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                walk(list.get(i), path + "[" + i + "]");
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((k, v) -> walk(v, child(path, String.valueOf(k))));
            return;
        }
        if (!isModel(value.getClass()) || !seen.add(value)) {
            return;
        }
        Method[] getters = value.getClass().getMethods();
        Arrays.sort(getters, Comparator.comparing(Method::getName));
        for (Method getter : getters) {
            if (!isGetter(getter)) {
                continue;
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                Map<?, ?> unknown = (Map<?, ?>) invoke(getter, value, path);
                if (unknown != null) {
                    unknown.keySet().forEach(k -> found.add(child(path, String.valueOf(k)) + ": unknown field (not in "
                            + value.getClass().getSimpleName() + ")"));
                }
            } else if (leadsToModels(getter.getReturnType())) {
                walk(invoke(getter, value, path), child(path, property(getter)));
            }
        }
    }

    private static boolean isGetter(Method m) {
        return m.getParameterCount() == 0 && !Modifier.isStatic(m.getModifiers()) && !m.isSynthetic()
                && m.getName().startsWith("get") && m.getName().length() > 3 && !m.getName().equals("getClass");
    }

    /** Lists, maps, fabric8 model classes and interfaces, and {@code Object} (fields typed by their value). */
    private static boolean leadsToModels(Class<?> type) {
        return List.class.isAssignableFrom(type) || Map.class.isAssignableFrom(type) || type == Object.class
                || isModel(type);
    }

    private static boolean isModel(Class<?> type) {
        return type.getName().startsWith("io.fabric8.") && !type.isEnum();
    }

    private static Object invoke(Method getter, Object target, String path) {
        try {
            return getter.invoke(target);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("reading " + child(path, property(getter)) + " of "
                    + target.getClass().getName(), e);
        }
    }

    /** The JSON name of a getter's property: its {@code @JsonProperty}, else the bean name. */
    private static String property(Method getter) {
        JsonProperty json = getter.getAnnotation(JsonProperty.class);
        if (json != null && !json.value().isEmpty()) {
            return json.value();
        }
        String bean = getter.getName().substring(3);
        boolean acronym = bean.length() > 1 && Character.isUpperCase(bean.charAt(1));
        return acronym ? bean : Character.toLowerCase(bean.charAt(0)) + bean.substring(1);
    }

    private static String child(String path, String name) {
        String step = name.matches("[A-Za-z0-9_-]+") ? name : "[" + name + "]";
        return path.isEmpty() ? step : step.startsWith("[") ? path + step : path + "." + step;
    }
}
