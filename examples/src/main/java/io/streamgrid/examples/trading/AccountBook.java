package io.streamgrid.examples.trading;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * One account's positions, in parallel arrays by symbol: an account holds few symbols, so a linear
 * scan comparing the trade's symbol bytes in place finds one without building a String.
 */
final class AccountBook {
    String[] symbols = new String[4];
    long[] quantity = new long[4];
    double[] averagePrice = new double[4];
    double[] realisedPnl = new double[4];
    double[] lastPrice = new double[4];
    long[] trades = new long[4];
    int size;
    boolean overLimit;
    int breaches;

    int add(final String symbol) {
        if (size == symbols.length) {
            final int capacity = size * 2;
            symbols = Arrays.copyOf(symbols, capacity);
            quantity = Arrays.copyOf(quantity, capacity);
            averagePrice = Arrays.copyOf(averagePrice, capacity);
            realisedPnl = Arrays.copyOf(realisedPnl, capacity);
            lastPrice = Arrays.copyOf(lastPrice, capacity);
            trades = Arrays.copyOf(trades, capacity);
        }
        symbols[size] = symbol;
        return size++;
    }

    /**
     * Applies a trade of {@code signedQuantity} at {@code price} to position {@code i}, average-cost
     * method: adding to a position moves its average; reducing it realises (price − average) per
     * unit closed; crossing through flat opens the remainder at the trade's price.
     */
    void apply(final int i, final long signedQuantity, final double price) {
        final long held = quantity[i];
        if (held == 0 || Long.signum(held) == Long.signum(signedQuantity)) {
            final long total = Math.abs(held) + Math.abs(signedQuantity);
            averagePrice[i] = (Math.abs(held) * averagePrice[i] + Math.abs(signedQuantity) * price) / total;
        } else {
            final long closed = Math.min(Math.abs(signedQuantity), Math.abs(held));
            realisedPnl[i] += closed * (price - averagePrice[i]) * Long.signum(held);
            if (Math.abs(signedQuantity) > Math.abs(held)) {
                averagePrice[i] = price;
            } else if (Math.abs(signedQuantity) == Math.abs(held)) {
                averagePrice[i] = 0;
            }
        }
        quantity[i] = held + signedQuantity;
        lastPrice[i] = price;
        trades[i]++;
    }

    double gross() {
        double gross = 0;
        for (int i = 0; i < size; i++) {
            gross += Math.abs(quantity[i]) * lastPrice[i];
        }
        return gross;
    }

    double realised() {
        double total = 0;
        for (int i = 0; i < size; i++) {
            total += realisedPnl[i];
        }
        return total;
    }

    /** Snapshot form; version 1. */
    void write(final DataOutput out) throws IOException {
        out.writeByte(1);
        out.writeInt(size);
        for (int i = 0; i < size; i++) {
            out.writeUTF(symbols[i]);
            out.writeLong(quantity[i]);
            out.writeDouble(averagePrice[i]);
            out.writeDouble(realisedPnl[i]);
            out.writeDouble(lastPrice[i]);
            out.writeLong(trades[i]);
        }
        out.writeBoolean(overLimit);
        out.writeInt(breaches);
    }

    static AccountBook read(final DataInput in) throws IOException {
        final int version = in.readByte();
        if (version != 1) {
            throw new IOException("account book of version " + version + ", this build reads version 1");
        }
        final AccountBook book = new AccountBook();
        final int size = in.readInt();
        for (int n = 0; n < size; n++) {
            final int i = book.add(in.readUTF());
            book.quantity[i] = in.readLong();
            book.averagePrice[i] = in.readDouble();
            book.realisedPnl[i] = in.readDouble();
            book.lastPrice[i] = in.readDouble();
            book.trades[i] = in.readLong();
        }
        book.overLimit = in.readBoolean();
        book.breaches = in.readInt();
        return book;
    }
}
