package io.streamgrid.examples.federated;

import javax.crypto.Cipher;
import javax.crypto.KeyAgreement;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/**
 * Secure aggregation by masks that cancel in the sum (after Bonawitz et al., CCS 2017), so the
 * aggregator never sees one device's update. A device's update is the vector of its
 * example-weighted delta in fixed point ({@value #FRACTION_BITS} fraction bits) and its example
 * count, in 64-bit integers added modulo 2⁶⁴; it goes out as
 * {@code y_i = x_i + Σ_{j>i} m_ij − Σ_{j<i} m_ij + s_i}: pairwise masks {@code m_ij} — a stream
 * of AES-CTR under a key from the X25519 agreement of i's private key with j's public key (both
 * compute it; the private keys never leave the devices), by model and round — over the round's
 * cohort, plus a self mask {@code s_i} from a fresh random seed. Over every device of the round
 * the pairwise masks cancel; for the devices whose updates the round took (survivors), each then
 * sends a correction — its self mask plus its signed pairwise masks with the chosen devices whose
 * updates the round did not take — and the sum less the corrections is the sum of the survivors'
 * {@code x_i}, exactly. A survivor's update stays masked by its pairwise masks with the other
 * survivors, which are never revealed; a dropped device's update, should it come late, by its self
 * mask, which it never reveals.
 */
public final class SecureAggregation {
    /** Fixed point: a weighted delta's value times 2^24, rounded. */
    public static final int FRACTION_BITS = 24;
    private static final double SCALE = 1L << FRACTION_BITS;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private SecureAggregation() {
    }

    /** A device's update in fixed point: samples × delta, then the samples. */
    public static long[] encode(final double[] delta, final long samples) {
        final long[] x = new long[delta.length + 1];
        for (int d = 0; d < delta.length; d++) {
            x[d] = Math.round(samples * delta[d] * SCALE);
        }
        x[delta.length] = samples;
        return x;
    }

    /** The mean delta of a sum of encoded updates. */
    public static double[] mean(final long[] sum) {
        final double[] mean = new double[sum.length - 1];
        for (int d = 0; d < mean.length; d++) {
            mean[d] = sum[d] / SCALE / sum[mean.length];
        }
        return mean;
    }

    public static KeyPair newKeyPair() {
        try {
            return KeyPairGenerator.getInstance("X25519").generateKeyPair();
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("this JVM has no X25519 (Java 11 and later do)", e);
        }
    }

    public static String text(final PublicKey key) {
        return ENCODER.encodeToString(key.getEncoded());
    }

    /** @throws IllegalArgumentException when {@code text} is not an X25519 public key */
    public static PublicKey publicKey(final String text) {
        try {
            return KeyFactory.getInstance("X25519").generatePublic(new X509EncodedKeySpec(DECODER.decode(text)));
        } catch (final GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not an X25519 public key: " + text, e);
        }
    }

    /**
     * Device {@code self}'s masked update for {@code round}: {@code x} plus its signed pairwise masks
     * with every other device of {@code cohort} (ascending, {@code keys} in the same order) plus its
     * self mask from {@code selfSeed}.
     */
    public static long[] mask(final long[] x, final long self, final PrivateKey own, final long[] cohort, final String[] keys,
                              final String model, final long round, final byte[] selfSeed) {
        final long[] y = x.clone();
        add(y, stream(selfSeed, y.length), 1);
        for (int k = 0; k < cohort.length; k++) {
            if (cohort[k] != self) {
                add(y, pairMask(own, publicKey(keys[k]), model, round, y.length), cohort[k] > self ? 1 : -1);
            }
        }
        return y;
    }

    /**
     * A survivor's correction for {@code round}: its self mask plus its signed pairwise masks with the
     * {@code dropped} devices (their keys in {@code droppedKeys}) — what the sum less it leaves unmasked.
     */
    public static long[] correction(final int length, final long self, final PrivateKey own, final long[] dropped,
                                    final String[] droppedKeys, final String model, final long round, final byte[] selfSeed) {
        final long[] c = stream(selfSeed, length);
        for (int k = 0; k < dropped.length; k++) {
            add(c, pairMask(own, publicKey(droppedKeys[k]), model, round, length), dropped[k] > self ? 1 : -1);
        }
        return c;
    }

    /** {@code into += sign × values}, modulo 2^64. */
    public static void add(final long[] into, final long[] values, final int sign) {
        for (int i = 0; i < into.length; i++) {
            into[i] += sign * values[i];
        }
    }

    /** The pairwise mask of two devices (symmetric: either computes it from its private key and the other's public key). */
    static long[] pairMask(final PrivateKey own, final PublicKey theirs, final String model, final long round, final int length) {
        try {
            final KeyAgreement agreement = KeyAgreement.getInstance("X25519");
            agreement.init(own);
            agreement.doPhase(theirs, true);
            final MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(agreement.generateSecret());
            sha.update(model.getBytes(StandardCharsets.UTF_8));
            sha.update(ByteBuffer.allocate(Long.BYTES).putLong(round).array());
            return stream(sha.digest(), length);
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("X25519 agreement failed", e);
        }
    }

    /** {@code length} longs of AES-128-CTR keystream under the first 16 bytes of {@code seed}. */
    static long[] stream(final byte[] seed, final int length) {
        try {
            final Cipher aes = Cipher.getInstance("AES/CTR/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(seed, 0, 16, "AES"), new IvParameterSpec(new byte[16]));
            final ByteBuffer bytes = ByteBuffer.wrap(aes.doFinal(new byte[length * Long.BYTES]));
            final long[] values = new long[length];
            for (int i = 0; i < length; i++) {
                values[i] = bytes.getLong();
            }
            return values;
        } catch (final GeneralSecurityException e) {
            throw new IllegalStateException("AES-CTR failed", e);
        }
    }
}
