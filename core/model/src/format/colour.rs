//! One colour scale for a time relative to a baseline, shared by every front end (the
//! desktop's matrix, the TUI's, the HTML report's): diverging around 1×, blue faster and
//! red slower (ColorBrewer's RdBu, which reads for the common colour-blindnesses),
//! interpolated in CIELAB so equal steps of log(ratio) look like equal steps of colour,
//! in 25 bins of a quarter of a doubling each, saturating at 8× either way. Each bin
//! carries the text colour that meets WCAG AA (contrast ≥ 4.5) on it; where neither dark
//! nor white text did, the bin's lightness was moved until one does.

/// Bins either side of 1×: a bin is a quarter of a doubling (`2^0.25` ≈ 1.19×).
pub const BINS_PER_SIDE: i32 = 12;

/// Width of a bin in log2(ratio).
pub const BIN_LOG2: f64 = 0.25;

/// Background of each bin, fastest (1/8× and below) to slowest (8× and above).
pub const PALETTE: [&str; 25] = [
    "#053061", "#11467f", "#1c5d9f", "#2b71b2", "#2b7ab0", "#4b97c5", "#6eacd1", "#8cc1dc",
    "#a8d0e4", "#c2ddec", "#d7e8f1", "#e7eff4", "#f7f7f7", "#faebe3", "#fce0cf", "#fccdb5",
    "#f8b799", "#f29f7d", "#e68367", "#dc6954", "#c94a40", "#bb2f33", "#a51429", "#850824",
    "#67001f",
];

/// Dark text, for the light bins.
pub const DARK_TEXT: &str = "#1c2330";

/// White text, for the dark bins.
pub const LIGHT_TEXT: &str = "#ffffff";

/// The text colour of each bin (its contrast with the bin ≥ 4.5, WCAG AA).
pub const TEXT: [&str; 25] = [
    LIGHT_TEXT, LIGHT_TEXT, LIGHT_TEXT, LIGHT_TEXT, LIGHT_TEXT, DARK_TEXT, DARK_TEXT, DARK_TEXT,
    DARK_TEXT, DARK_TEXT, DARK_TEXT, DARK_TEXT, DARK_TEXT, DARK_TEXT, DARK_TEXT, DARK_TEXT,
    DARK_TEXT, DARK_TEXT, DARK_TEXT, DARK_TEXT, LIGHT_TEXT, LIGHT_TEXT, LIGHT_TEXT, LIGHT_TEXT,
    LIGHT_TEXT,
];

/// The bin of a ratio (`None` when it is not a positive number): the nearest quarter
/// doubling, ties upward, clamped to 1/8×…8×. Written as `floor(x + 0.5)` so that the
/// page's `Math.floor` gives the same bin for every ratio.
pub fn ratio_bin(ratio: f64) -> Option<usize> {
    if !(ratio.is_finite() && ratio > 0.0) {
        return None;
    }
    let k = (ratio.log2() / BIN_LOG2 + 0.5).floor() as i64;
    let k = k.clamp(-(BINS_PER_SIDE as i64), BINS_PER_SIDE as i64);
    Some((k + BINS_PER_SIDE as i64) as usize)
}

/// Background and text colour (`#rrggbb`) of a ratio's cell.
pub fn ratio_colours(ratio: f64) -> Option<(&'static str, &'static str)> {
    ratio_bin(ratio).map(|b| (PALETTE[b], TEXT[b]))
}

/// `#rrggbb` as its three channels.
pub fn rgb(hex: &str) -> (u8, u8, u8) {
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
    (c(1), c(3), c(5))
}

/// WCAG's relative luminance of an sRGB colour.
fn luminance(hex: &str) -> f64 {
    let (r, g, b) = rgb(hex);
    let lin = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.040_45 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)
}

/// WCAG's contrast ratio of two colours (1 to 21).
pub fn contrast(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bin_meets_wcag_aa() {
        for (bg, text) in PALETTE.iter().zip(TEXT) {
            let c = contrast(bg, text);
            assert!(c >= 4.5, "{text} on {bg}: {c:.2}");
        }
    }

    #[test]
    fn bins_run_from_blue_through_white_to_red_in_order() {
        assert_eq!(ratio_bin(1.0), Some(12));
        assert_eq!(PALETTE[12], "#f7f7f7");
        // Lightness falls away from 1× on both sides.
        for k in 1..12 {
            assert!(
                luminance(PALETTE[12 + k]) < luminance(PALETTE[12 + k - 1]) + 1e-9,
                "{k}"
            );
            assert!(
                luminance(PALETTE[12 - k]) < luminance(PALETTE[12 - k + 1]) + 0.01,
                "{k}"
            );
        }
        let (r, _, b) = rgb(PALETTE[0]);
        assert!(b > r, "faster is blue");
        let (r, _, b) = rgb(PALETTE[24]);
        assert!(r > b, "slower is red");
    }

    #[test]
    fn ratios_far_apart_get_different_colours() {
        // The desktop's reds made 1.1× and 1.8× look alike.
        let bin = |r: f64| ratio_bin(r).unwrap();
        assert_eq!(bin(1.1), 13);
        assert_eq!(bin(1.8), 15);
        assert_eq!(bin(2.0), 16);
        assert_eq!(bin(0.5), 8);
        assert_eq!(bin(100.0), 24);
        assert_eq!(bin(0.001), 0);
        assert_eq!(ratio_bin(0.0), None);
        assert_eq!(ratio_bin(f64::NAN), None);
        assert_eq!(ratio_colours(8.0), Some(("#67001f", LIGHT_TEXT)));
    }
}
