package dev.meshbench.acmeair;

import java.util.Locale;
import java.util.TimeZone;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Sets the JVM's default locale to ru-RU and its default zone to Pacific/Kiritimati (UTC+14) for each test, and
 * restores both afterwards: code that leans on either (month names, decimal commas, "today") gives itself away. The
 * services of {@link AcmeairSystem} run in the same JVM, so they see these defaults too.
 */
public final class HostileDefaults implements BeforeEachCallback, AfterEachCallback {
    public static final Locale LOCALE = Locale.forLanguageTag("ru-RU");
    public static final String ZONE = "Pacific/Kiritimati";
    private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(HostileDefaults.class);

    private record Saved(Locale locale, Locale format, Locale display, TimeZone zone) {
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NS).put(Saved.class, new Saved(Locale.getDefault(), Locale.getDefault(Locale.Category.FORMAT),
                Locale.getDefault(Locale.Category.DISPLAY), TimeZone.getDefault()));
        Locale.setDefault(LOCALE);
        TimeZone.setDefault(TimeZone.getTimeZone(ZONE));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Saved saved = context.getStore(NS).remove(Saved.class, Saved.class);
        Locale.setDefault(saved.locale());
        Locale.setDefault(Locale.Category.FORMAT, saved.format());
        Locale.setDefault(Locale.Category.DISPLAY, saved.display());
        TimeZone.setDefault(saved.zone());
    }
}
