# SPDX-License-Identifier: GPL-2.0
"""The benchmarks' one statistic: the median of paired ratios and its
distribution-free confidence interval from the order statistics (the
binomial interval of a median: no assumption on the ratios' distribution).
Imported by the scripts/bench/*.sh summaries (sys.path: this folder)."""
import math


def median_ci(v, level=0.95):
    """[x_(k), x_(n+1-k)] of v, the largest k with P(Binom(n, 1/2) < k) <=
    (1 - level) / 2, and the interval's exact confidence; (None, None,
    1.0) when there are too few values for any"""
    n = len(v)
    s = sorted(v)
    k, cum = 0, 0.0
    while True:
        p = math.comb(n, k) / 2 ** n
        if cum + p > (1 - level) / 2:
            break
        cum += p
        k += 1
    if k == 0:
        return None, None, 1.0
    return s[k - 1], s[n - k], 1 - 2 * cum
