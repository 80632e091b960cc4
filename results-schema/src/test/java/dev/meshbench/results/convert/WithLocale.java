package dev.meshbench.results.convert;

import java.util.Locale;
import java.util.concurrent.Callable;

/** Runs a piece of test code with another default locale and restores the previous one. */
final class WithLocale {
    private WithLocale() {
    }

    static <T> T call(Locale locale, Callable<T> body) {
        Locale before = Locale.getDefault();
        Locale.setDefault(locale);
        try {
            return body.call();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        } finally {
            Locale.setDefault(before);
        }
    }
}
