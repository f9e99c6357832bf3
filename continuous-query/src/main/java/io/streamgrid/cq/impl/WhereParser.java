package io.streamgrid.cq.impl;

import io.streamgrid.cq.PredicateSyntaxException;
import io.streamgrid.cq.Where;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/** Recursive-descent parser of {@link Where} text into a tree of serializable nodes. */
public final class WhereParser {
    private final List<Token> tokens;
    private final String text;
    private int index;

    private WhereParser(final String text) {
        this.text = text;
        this.tokens = tokenize(text);
    }

    public static Where parse(final String text) {
        final String trimmed = text == null ? "" : text.trim();
        if (trimmed.isEmpty()) {
            return new Node.All(trimmed);
        }
        final WhereParser parser = new WhereParser(trimmed);
        final Node node = parser.or();
        if (parser.peek().kind != Kind.END) {
            throw parser.error("unexpected token, expected AND, OR or the end");
        }
        return new Node.Root(trimmed, node);
    }

    private Node or() {
        Node left = and();
        while (keyword("OR")) {
            left = new Node.Or(left, and());
        }
        return left;
    }

    private Node and() {
        Node left = not();
        while (keyword("AND")) {
            left = new Node.And(left, not());
        }
        return left;
    }

    private Node not() {
        if (keyword("NOT")) {
            return new Node.Not(not());
        }
        if (peek().kind == Kind.LPAREN) {
            index++;
            final Node inner = or();
            expect(Kind.RPAREN, "')'");
            return inner;
        }
        return comparison();
    }

    private Node comparison() {
        final Token field = peek();
        if (field.kind != Kind.IDENT) {
            throw error("expected a field name");
        }
        index++;
        final String name = field.text;
        if (keyword("IS")) {
            final boolean negated = keyword("NOT");
            if (!keyword("NULL")) {
                throw error("expected NULL");
            }
            return negated ? new Node.Not(new Node.IsNull(name)) : new Node.IsNull(name);
        }
        final boolean negated = keyword("NOT");
        final Node node;
        if (keyword("IN")) {
            expect(Kind.LPAREN, "'('");
            final List<Object> values = new ArrayList<>();
            values.add(literal());
            while (peek().kind == Kind.COMMA) {
                index++;
                values.add(literal());
            }
            expect(Kind.RPAREN, "')'");
            node = new Node.In(name, values);
        } else if (keyword("BETWEEN")) {
            final Object low = literal();
            if (!keyword("AND")) {
                throw error("expected AND in BETWEEN");
            }
            node = new Node.Between(name, low, literal());
        } else if (keyword("LIKE")) {
            final Token pattern = peek();
            if (pattern.kind != Kind.STRING) {
                throw error("expected a 'pattern' after LIKE");
            }
            index++;
            node = new Node.Like(name, pattern.text);
        } else if (negated) {
            throw error("expected IN, BETWEEN or LIKE after NOT");
        } else {
            final Token op = peek();
            if (op.kind != Kind.OP) {
                throw error("expected a comparison (= != <> < <= > >=), IN, BETWEEN, LIKE or IS");
            }
            index++;
            node = new Node.Compare(name, op.text.equals("<>") ? "!=" : op.text, literal());
        }
        return negated ? new Node.Not(node) : node;
    }

    private Object literal() {
        final Token token = peek();
        index++;
        return switch (token.kind) {
            case NUMBER -> token.text.contains(".") || token.text.contains("e") || token.text.contains("E")
                    ? (Object) Double.parseDouble(token.text) : (Object) Long.parseLong(token.text);
            case STRING -> token.text;
            case IDENT -> {
                final String upper = token.text.toUpperCase(Locale.ROOT);
                if (upper.equals("TRUE") || upper.equals("FALSE")) {
                    yield Boolean.parseBoolean(upper.toLowerCase(Locale.ROOT));
                }
                index--;
                throw error("expected a literal (number, 'string', TRUE or FALSE)");
            }
            default -> {
                index--;
                throw error("expected a literal (number, 'string', TRUE or FALSE)");
            }
        };
    }

    private boolean keyword(final String word) {
        final Token token = peek();
        if (token.kind == Kind.IDENT && token.text.equalsIgnoreCase(word)) {
            index++;
            return true;
        }
        return false;
    }

    private void expect(final Kind kind, final String what) {
        if (peek().kind != kind) {
            throw error("expected " + what);
        }
        index++;
    }

    private Token peek() {
        return tokens.get(index);
    }

    private PredicateSyntaxException error(final String message) {
        final Token token = peek();
        return new PredicateSyntaxException(message + " in \"" + text + "\"", token.position + 1, token.text);
    }

    private enum Kind { IDENT, NUMBER, STRING, OP, LPAREN, RPAREN, COMMA, END }

    private record Token(Kind kind, String text, int position) {
    }

    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?");

    private static List<Token> tokenize(final String text) {
        final List<Token> tokens = new ArrayList<>();
        int i = 0;
        while (i < text.length()) {
            final char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                i++;
            } else if (c == '(' || c == ')' || c == ',') {
                tokens.add(new Token(c == '(' ? Kind.LPAREN : c == ')' ? Kind.RPAREN : Kind.COMMA, String.valueOf(c), i));
                i++;
            } else if (c == '\'') {
                final StringBuilder value = new StringBuilder();
                int j = i + 1;
                while (true) {
                    if (j >= text.length()) {
                        throw new PredicateSyntaxException("unterminated string in \"" + text + "\"", i + 1, text.substring(i));
                    }
                    if (text.charAt(j) == '\'') {
                        if (j + 1 < text.length() && text.charAt(j + 1) == '\'') {
                            value.append('\'');
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    value.append(text.charAt(j++));
                }
                tokens.add(new Token(Kind.STRING, value.toString(), i));
                i = j + 1;
            } else if ("=<>!".indexOf(c) >= 0) {
                final String two = i + 1 < text.length() ? text.substring(i, i + 2) : "";
                if (two.equals("<=") || two.equals(">=") || two.equals("!=") || two.equals("<>")) {
                    tokens.add(new Token(Kind.OP, two, i));
                    i += 2;
                } else if (c == '!') {
                    throw new PredicateSyntaxException("'!' must be followed by '=' in \"" + text + "\"", i + 1, "!");
                } else {
                    tokens.add(new Token(Kind.OP, String.valueOf(c), i));
                    i++;
                }
            } else if (Character.isDigit(c) || (c == '-' && i + 1 < text.length() && Character.isDigit(text.charAt(i + 1)))) {
                final java.util.regex.Matcher m = NUMBER.matcher(text).region(i, text.length());
                if (!m.lookingAt()) {
                    throw new PredicateSyntaxException("bad number in \"" + text + "\"", i + 1, String.valueOf(c));
                }
                tokens.add(new Token(Kind.NUMBER, m.group(), i));
                i = m.end();
            } else if (Character.isLetter(c) || c == '_') {
                int j = i;
                while (j < text.length() && (Character.isLetterOrDigit(text.charAt(j)) || text.charAt(j) == '_')) {
                    j++;
                }
                tokens.add(new Token(Kind.IDENT, text.substring(i, j), i));
                i = j;
            } else {
                throw new PredicateSyntaxException("unexpected character in \"" + text + "\"", i + 1, String.valueOf(c));
            }
        }
        tokens.add(new Token(Kind.END, "", text.length()));
        return tokens;
    }
}
