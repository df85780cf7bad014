package io.breaker.sample.books;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class IsbnTest {

    @ParameterizedTest
    @CsvSource({
        "9780134685991, 9780134685991",
        "978-0-13-468599-1, 9780134685991",
        "0201633612, 9780201633610",
        "0-201-63361-2, 9780201633610",
        "080442957X, 9780804429573",
        "979 10 90636 07 1, 9791090636071"
    })
    void parsesIsbn10AndIsbn13IntoIsbn13(String input, String expected) {
        assertThat(Isbn.parse(input).digits()).isEqualTo(expected);
    }

    @Test
    void rejectsAWrongIsbn13CheckDigitSayingSo() {
        assertThatThrownBy(() -> Isbn.parse("9780134685992"))
                .isInstanceOf(InvalidIsbnException.class)
                .hasMessage("'9780134685992' is not a valid ISBN: its ISBN-13 check digit is wrong");
    }

    @Test
    void rejectsAWrongIsbn10CheckDigitSayingSo() {
        assertThatThrownBy(() -> Isbn.parse("0201633613")).hasMessageContaining("ISBN-10 check digit is wrong");
    }

    @Test
    void rejectsAnIsbn13WithoutTheBooklandPrefix() {
        assertThatThrownBy(() -> Isbn.parse("1234567890128")).hasMessageContaining("starts with 978 or 979");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\uFF10\uFF12\uFF10\uFF11\uFF16\uFF13\uFF13\uFF16\uFF11\uFF12", // 0201633612, fullwidth
                "\u0660\u0662\u0660\u0661\u0666\u0663\u0663\u0666\u0661\u0662", // the same, Arabic-Indic
                "\u0669\u0667\u0668\u0660\u0661\u0663\u0664\u0666\u0668\u0665\u0669\u0669\u0661"
            })
    void rejectsDigitsOtherThanAsciiOnesWhichTheWholesalerCannotRead(String input) {
        assertThatThrownBy(() -> Isbn.parse(input))
                .isInstanceOf(InvalidIsbnException.class)
                .hasMessageContaining("digits 0-9");
    }

    @Test
    void rejectsMathematicalBoldDigitsAsDigitsOtherThan0To9() {
        // 9780134685991 in MATHEMATICAL BOLD DIGITs, each outside the BMP: two UTF-16 units, one character.
        String bold = "9780134685991"
                .codePoints()
                .map(digit -> 0x1D7CE + digit - '0')
                .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                .toString();
        assertThat(bold).hasSize(26);

        assertThatThrownBy(() -> Isbn.parse(bold))
                .isInstanceOf(InvalidIsbnException.class)
                .hasMessageEndingWith("an ISBN is written with the digits 0-9");
    }

    @ParameterizedTest
    @CsvSource({
        "\uD83D\uDCDA, it has 1 character without hyphens; an ISBN has 10 or 13",
        // Five books are ten UTF-16 units, not the ten characters of an ISBN-10.
        "\uD83D\uDCDA\uD83D\uDCDA\uD83D\uDCDA\uD83D\uDCDA\uD83D\uDCDA, it has 5 characters without hyphens; an ISBN has 10 or 13",
        "978013468599\uD83D\uDCDA, an ISBN-13 has 13 digits"
    })
    void countsCharactersNotUtf16UnitsInItsMessage(String input, String reason) {
        assertThatThrownBy(() -> Isbn.parse(input))
                .isInstanceOf(InvalidIsbnException.class)
                .hasMessage("'" + input + "' is not a valid ISBN: " + reason);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " ", "123", "97801346859911", "abcdefghij", "97801346859X1", "X201633612"})
    void rejectsWhatIsNoIsbnAtAll(String input) {
        assertThatThrownBy(() -> Isbn.parse(input)).isInstanceOf(InvalidIsbnException.class);
    }

    @Test
    void cutsALongInputInItsMessage() {
        String huge = "9".repeat(10_000);

        assertThatThrownBy(() -> Isbn.parse(huge))
                .isInstanceOf(InvalidIsbnException.class)
                .hasMessage("'" + "9".repeat(40) + "...' (10000 characters) is not a valid ISBN: it has 10000"
                        + " characters without hyphens; an ISBN has 10 or 13");
    }

    @Test
    void cutsALongInputBetweenCharactersNotInsideOne() {
        // 41 mathematical bold digits: cutting at 40 UTF-16 units would split the 21st in two.
        String bold = "\uD835\uDFD7".repeat(41);

        assertThatThrownBy(() -> Isbn.parse(bold))
                .hasMessageStartingWith("'" + "\uD835\uDFD7".repeat(40) + "...' (41 characters)");
    }
}
