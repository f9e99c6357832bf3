package io.streamgrid.examples.trading;

/**
 * The account's gross exposure went above the limit ({@code state.exposure-alerts}, keyed
 * {@code account|breach}): once per crossing, not per trade while above.
 *
 * @param breach the account's breach number, from 1
 */
public record ExposureAlert(String account, int breach, double gross, double limit, long at) {
}
