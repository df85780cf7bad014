package io.breaker.spring.aop;

import io.breaker.CircuitOpenException;
import io.breaker.State;
import org.junit.jupiter.api.Test;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.lang.reflect.Method;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The fallback rules, without Spring. */
class FallbackResolverTest {

    static class Base {
        private String inherited(String isbn, IOException failure) {
            return "base io";
        }
    }

    static class Shop extends Base {
        public String title(String isbn) {
            return "Dune";
        }

        private String specific(String isbn, IOException failure) {
            return "io";
        }

        private String specific(String isbn, FileNotFoundException failure) {
            return "file";
        }

        private String specific(String isbn, Exception failure) {
            return "exception";
        }

        private String onlyIo(String isbn, IOException failure) {
            return "io";
        }

        private String inherited(String isbn) {
            return "plain";
        }

        private CharSequence wider(String isbn) {
            return "wider";
        }

        private static String statically(String isbn) {
            return "static";
        }

        public int count(String isbn) {
            return 1;
        }

        private Integer boxed(String isbn) {
            return 2;
        }
    }

    private final Method title = method("title");

    @Test
    void theMostSpecificExceptionTypeWinsAmongOverloads() throws Throwable {
        Fallback fallback = FallbackResolver.resolve(Shop.class, title, "specific");
        Shop shop = new Shop();
        Object[] args = {"isbn"};
        assertThat(fallback.invoke(shop, args, new FileNotFoundException())).isEqualTo("file");
        assertThat(fallback.invoke(shop, args, new IOException())).isEqualTo("io");
        assertThat(fallback.invoke(shop, args, new IllegalStateException())).isEqualTo("exception");
        assertThat(fallback.invoke(shop, args, new CircuitOpenException("shop", State.OPEN, 0)))
                .isEqualTo("exception");
    }

    @Test
    void anExceptionNoOverloadAcceptsIsRethrown() {
        Fallback fallback = FallbackResolver.resolve(Shop.class, title, "onlyIo");
        IllegalStateException bug = new IllegalStateException();
        assertThat(fallback.serves(bug)).isFalse();
        assertThat(fallback.selectFor(CircuitOpenException.class)).isNull();
        assertThatThrownBy(() -> fallback.invoke(new Shop(), new Object[] {"isbn"}, bug))
                .isSameAs(bug);
    }

    @Test
    void overloadsInSuperclassesCountAndTheOneWithoutExceptionServesEverythingElse() throws Throwable {
        Fallback fallback = FallbackResolver.resolve(Shop.class, title, "inherited");
        assertThat(fallback.invoke(new Shop(), new Object[] {"isbn"}, new IOException()))
                .isEqualTo("base io");
        assertThat(fallback.invoke(new Shop(), new Object[] {"isbn"}, new IllegalStateException()))
                .isEqualTo("plain");
    }

    @Test
    void rejectsAWiderReturnType() {
        assertThatThrownBy(() -> FallbackResolver.resolve(Shop.class, title, "wider"))
                .isInstanceOf(InvalidCircuitProtectedException.class)
                .hasMessageContaining("returns CharSequence, which title cannot return");
    }

    @Test
    void staticFallbacksAreAcceptedButNotABoxedOneForAPrimitiveMethod() throws Throwable {
        assertThat(FallbackResolver.resolve(Shop.class, title, "statically")
                        .invoke(new Shop(), new Object[] {"isbn"}, new IOException()))
                .isEqualTo("static");
        // An Integer fallback may return null, which an int method cannot: refused at start-up, not at call time.
        assertThatThrownBy(() -> FallbackResolver.resolve(Shop.class, method("count"), "boxed"))
                .isInstanceOf(InvalidCircuitProtectedException.class)
                .hasMessageContaining("returns Integer, which may be null, but count returns int");
    }

    @Test
    void missingFallbackNamesClassMethodAndAcceptedSignatures() {
        assertThatThrownBy(() -> FallbackResolver.resolve(Shop.class, title, "nothing"))
                .isInstanceOf(InvalidCircuitProtectedException.class)
                .hasMessageContaining(Shop.class.getName() + ".title(String)")
                .hasMessageContaining("fallbackMethod 'nothing' does not exist")
                .hasMessageContaining("String nothing(String) or String nothing(String, Throwable)");
    }

    private static Method method(String name) {
        try {
            return Shop.class.getMethod(name, String.class);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
