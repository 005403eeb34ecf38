"""Intervals for rates from trials (coverage, power, false alarms), shared by bench-truth and
bench-paired, so that every rate in docs/statistics.md is computed one way.

Rows of one diff share its runs, so they are not independent trials: a rate over rows gets
an interval that treats each diff as a cluster (Kish's effective sample size: the rows
divided by the design effect the clusters show, with Wilson's interval on that).

As a command, for a figure whose per-diff counts are gone:
    python3 scripts/rates.py HITS ROWS CLUSTERS
prints the Wilson interval over rows and the worst case for clusters (each cluster
counted as one trial: the design effect at its largest, the mean cluster size).
"""
import sys

Z = 1.96


def wilson(k, n, z=Z):
    """The 95 % Wilson score interval of k successes in n trials (k and n may be fractional:
    an effective sample). None without trials."""
    if not n:
        return None
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def design_effect(clusters):
    """How many rows one independent trial is worth here: the variance of the share between
    clusters over the binomial variance, held between 1 and the mean cluster size (its
    largest possible value, when rows of a cluster always agree). At a share of 0 or 1 the
    clusters show nothing, so the largest is taken."""
    k = len(clusters)
    n = sum(m for _, m in clusters)
    mean_size = n / k
    p = sum(c for c, _ in clusters) / n
    if k < 2 or p in (0.0, 1.0):
        return mean_size
    between = k / (k - 1) * sum((c - p * m) ** 2 for c, m in clusters) / n ** 2
    return min(mean_size, max(1.0, between / (p * (1 - p) / n)))


def clustered(clusters):
    """The 95 % interval of a share whose trials come in clusters [(hits, rows), …]: Wilson
    at the effective number of trials. None without rows.

    Clusters whose rows always agree count once each; rows that vary inside every cluster
    as independent trials would count as rows:
    >>> clustered([(2, 2)] * 5 + [(0, 2)] * 5) == wilson(5, 10)
    True
    >>> clustered([(1, 2)] * 10) == wilson(10, 20)
    True
    >>> clustered([(10, 10)] * 9 + [(9, 10)])
    [0.9451, 0.9982]
    >>> clustered([(0, 10)] * 10) == wilson(0, 10)
    True
    """
    clusters = [(c, m) for c, m in clusters if m]
    if not clusters:
        return None
    n = sum(m for _, m in clusters)
    hits = sum(c for c, _ in clusters)
    eff = n / design_effect(clusters)
    return wilson(hits / n * eff, eff)


def worst_case(hits, rows, clusters):
    """The clustered interval when only the totals are known: every cluster counted once.

    >>> worst_case(0, 1140, 5)
    [0.0, 0.4345]
    """
    return wilson(hits / rows * clusters, clusters) if rows and clusters else None


def fmt(interval):
    return "-" if not interval else f"[{100 * interval[0]:.1f}, {100 * interval[1]:.1f}] %"


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: rates.py HITS ROWS CLUSTERS")
    h, r, c = (int(a) for a in sys.argv[1:])
    print(f"{h}/{r} over {c} clusters: rows {fmt(wilson(h, r))}, worst case for clusters {fmt(worst_case(h, r, c))}")
