//! The reference's image filters (its `geometry/*` filter loaders, `auto_rotate`, `strip`) and
//! what each does to an image's size: pure arithmetic, with the reference's rounding (Imagine's
//! `Box::scale`, `widen`, `heighten`: to the nearest pixel, at least one).

/// One filter of a variation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Filter {
    /// Turns the image as its EXIF orientation says.
    AutoRotate,
    /// Drops metadata (rendered files never carry any: accepted for the reference's configs).
    Strip,
    /// Fits inside `w` × `h`, keeping the ratio, larger or smaller.
    Scale(u32, u32),
    /// To `w` wide, keeping the ratio.
    ScaleWidth(u32),
    /// To `h` high, keeping the ratio.
    ScaleHeight(u32),
    /// Fits inside `w` × `h`, keeping the ratio, never larger.
    ScaleDownOnly(u32, u32),
    /// At most `w` wide, keeping the ratio.
    ScaleWidthDownOnly(u32),
    /// At most `h` high, keeping the ratio.
    ScaleHeightDownOnly(u32),
    /// Exactly `w` × `h` (the ratio is not kept).
    ScaleExact(u32, u32),
    /// `w` % of the width and `h` % of the height.
    ScalePercent(u32, u32),
    /// The `w` × `h` region at `x`, `y` (cut to the image).
    Crop(u32, u32, u32, u32),
}

/// What a filter does to an image of a given size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Keep,
    Orient,
    Resize(u32, u32),
    Crop { x: u32, y: u32, w: u32, h: u32 },
}

impl Filter {
    /// The names a configuration may use.
    pub const NAMES: &[&str] = &[
        "auto_rotate",
        "strip",
        "geometry/scale",
        "geometry/scalewidth",
        "geometry/scaleheight",
        "geometry/scaledownonly",
        "geometry/scalewidthdownonly",
        "geometry/scaleheightdownonly",
        "geometry/scaleexact",
        "geometry/scalepercent",
        "geometry/crop",
    ];

    /// The filter `name` with `params`; `Ok(None)` for a name that is no filter of these,
    /// an error for parameters that do not fit it.
    pub fn parse(name: &str, params: &[serde_yaml::Value]) -> Result<Option<Filter>, String> {
        let wanted = match name {
            "auto_rotate" | "strip" => 0,
            "geometry/scalewidth"
            | "geometry/scaleheight"
            | "geometry/scalewidthdownonly"
            | "geometry/scaleheightdownonly" => 1,
            "geometry/crop" => 4,
            n if Filter::NAMES.contains(&n) => 2,
            _ => return Ok(None),
        };
        if params.len() != wanted {
            return Err(format!("give {wanted} parameters, not {}", params.len()));
        }
        let mut n = Vec::with_capacity(wanted);
        for (i, p) in params.iter().enumerate() {
            let v = p
                .as_u64()
                .filter(|v| *v <= 100_000 && (*v > 0 || (name == "geometry/crop" && i >= 2)))
                .ok_or_else(|| format!("parameter {} must be a whole number above 0", i + 1))?;
            n.push(v as u32);
        }
        Ok(Some(match name {
            "auto_rotate" => Filter::AutoRotate,
            "strip" => Filter::Strip,
            "geometry/scale" => Filter::Scale(n[0], n[1]),
            "geometry/scalewidth" => Filter::ScaleWidth(n[0]),
            "geometry/scaleheight" => Filter::ScaleHeight(n[0]),
            "geometry/scaledownonly" => Filter::ScaleDownOnly(n[0], n[1]),
            "geometry/scalewidthdownonly" => Filter::ScaleWidthDownOnly(n[0]),
            "geometry/scaleheightdownonly" => Filter::ScaleHeightDownOnly(n[0]),
            "geometry/scaleexact" => Filter::ScaleExact(n[0], n[1]),
            "geometry/scalepercent" => Filter::ScalePercent(n[0], n[1]),
            _ => Filter::Crop(n[0], n[1], n[2], n[3]),
        }))
    }

    /// What this filter does to a `w` × `h` image.
    pub fn step(self, w: u32, h: u32) -> Step {
        let (fw, fh) = (f64::from(w), f64::from(h));
        let scaled = |ratio: f64| {
            let px = |v: f64| ((v * ratio).round() as u32).max(1);
            Step::Resize(px(fw), px(fh))
        };
        let fit = |bw: u32, bh: u32| (f64::from(bw) / fw).min(f64::from(bh) / fh);
        let step = match self {
            Filter::AutoRotate => return Step::Orient,
            Filter::Strip => Step::Keep,
            Filter::Scale(bw, bh) => scaled(fit(bw, bh)),
            Filter::ScaleWidth(bw) => scaled(f64::from(bw) / fw),
            Filter::ScaleHeight(bh) => scaled(f64::from(bh) / fh),
            Filter::ScaleDownOnly(bw, bh) if w > bw || h > bh => scaled(fit(bw, bh)),
            Filter::ScaleWidthDownOnly(bw) if w > bw => scaled(f64::from(bw) / fw),
            Filter::ScaleHeightDownOnly(bh) if h > bh => scaled(f64::from(bh) / fh),
            Filter::ScaleDownOnly(..)
            | Filter::ScaleWidthDownOnly(_)
            | Filter::ScaleHeightDownOnly(_) => Step::Keep,
            Filter::ScaleExact(bw, bh) => Step::Resize(bw, bh),
            Filter::ScalePercent(pw, ph) => {
                let pct =
                    |v: u32, p: u32| ((f64::from(v) * f64::from(p) / 100.0).round() as u32).max(1);
                Step::Resize(pct(w, pw), pct(h, ph))
            }
            Filter::Crop(cw, ch, x, y) => {
                let (x, y) = (x.min(w - 1), y.min(h - 1));
                Step::Crop {
                    x,
                    y,
                    w: cw.min(w - x),
                    h: ch.min(h - y),
                }
            }
        };
        match step {
            Step::Resize(nw, nh) if (nw, nh) == (w, h) => Step::Keep,
            Step::Crop { w: cw, h: ch, .. } if (cw, ch) == (w, h) => Step::Keep,
            s => s,
        }
    }
}

/// What a variation's filters do to an image of `w` × `h` whose orientation, when applied,
/// swaps width and height (`turned`): the steps in order, the sizes computed from the sizes
/// before them, so that the result is the filters' one after the other.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plan {
    /// The steps; of consecutive resizes only the last is kept (the same size, one resampling).
    pub steps: Vec<Step>,
    /// The least size, as stored (before any orientation), the image needs to be decoded at
    /// for the steps: the first resize's when one comes before any crop (orienting aside),
    /// else `None` (decoded whole).
    pub decode_at: Option<(u32, u32)>,
}

impl Plan {
    pub fn new(filters: &[Filter], w: u32, h: u32, turned: bool) -> Plan {
        let (mut w, mut h) = (w, h);
        let mut steps: Vec<Step> = Vec::new();
        for filter in filters {
            let step = filter.step(w, h);
            match step {
                Step::Keep => continue,
                Step::Orient if turned => (w, h) = (h, w),
                Step::Orient => {}
                Step::Resize(nw, nh) => {
                    (w, h) = (nw, nh);
                    if matches!(steps.last(), Some(Step::Resize(..))) {
                        steps.pop();
                    }
                }
                Step::Crop { w: cw, h: ch, .. } => (w, h) = (cw, ch),
            }
            steps.push(step);
        }
        let mut swapped = false;
        let mut decode_at = None;
        for step in &steps {
            match step {
                Step::Orient => swapped = turned,
                Step::Resize(w, h) if swapped => decode_at = Some((*h, *w)),
                Step::Resize(w, h) => decode_at = Some((*w, *h)),
                _ => {}
            }
            if !matches!(step, Step::Orient) {
                break;
            }
        }
        Plan { steps, decode_at }
    }
}

#[cfg(test)]
mod tests {
    use super::Filter::*;
    use super::*;

    #[test]
    fn plans_resize_once_and_say_what_to_decode() {
        // The reference's `small`: auto_rotate, 600 × 600 then 100 × 100, down only.
        let small = [AutoRotate, ScaleDownOnly(600, 600), ScaleDownOnly(100, 100)];
        let plan = Plan::new(&small, 4000, 3000, false);
        assert_eq!(plan.steps, [Step::Orient, Step::Resize(100, 75)]);
        assert_eq!(plan.decode_at, Some((100, 75)));
        // Turned a quarter: shown 3000 × 4000, so 75 × 100, decoded from 4000 × 3000.
        let plan = Plan::new(&small, 4000, 3000, true);
        assert_eq!(plan.steps, [Step::Orient, Step::Resize(75, 100)]);
        assert_eq!(plan.decode_at, Some((100, 75)));
        // Small already: nothing to do, decoded whole.
        let plan = Plan::new(&small, 80, 60, false);
        assert_eq!((plan.steps, plan.decode_at), (vec![Step::Orient], None));
        // A crop first needs every pixel; a crop after a resize does not.
        let crop = [Crop(10, 10, 0, 0), ScaleDownOnly(5, 5)];
        assert_eq!(Plan::new(&crop, 400, 300, false).decode_at, None);
        let later = [
            ScaleDownOnly(100, 100),
            Crop(10, 10, 0, 0),
            ScaleExact(5, 5),
        ];
        let plan = Plan::new(&later, 400, 300, false);
        assert_eq!(plan.decode_at, Some((100, 75)));
        assert_eq!(
            plan.steps,
            [
                Step::Resize(100, 75),
                Step::Crop {
                    x: 0,
                    y: 0,
                    w: 10,
                    h: 10
                },
                Step::Resize(5, 5)
            ]
        );
    }

    #[test]
    fn sizes_are_the_references() {
        // 4000 × 3000 into 600 × 600, then 100 × 100: 600 × 450, 100 × 75.
        assert_eq!(
            ScaleDownOnly(600, 600).step(4000, 3000),
            Step::Resize(600, 450)
        );
        assert_eq!(
            ScaleDownOnly(100, 100).step(600, 450),
            Step::Resize(100, 75)
        );
        assert_eq!(ScaleDownOnly(30, 30).step(1000, 3000), Step::Resize(10, 30));
        // Never larger.
        assert_eq!(ScaleDownOnly(600, 600).step(80, 60), Step::Keep);
        assert_eq!(ScaleWidthDownOnly(100).step(80, 60), Step::Keep);
        assert_eq!(ScaleHeightDownOnly(30).step(80, 60), Step::Resize(40, 30));
        // Larger too.
        assert_eq!(Scale(200, 200).step(80, 60), Step::Resize(200, 150));
        assert_eq!(ScaleWidth(160).step(80, 60), Step::Resize(160, 120));
        assert_eq!(ScaleHeight(30).step(80, 60), Step::Resize(40, 30));
        assert_eq!(ScaleExact(10, 50).step(80, 60), Step::Resize(10, 50));
        assert_eq!(ScalePercent(50, 25).step(80, 60), Step::Resize(40, 15));
        // A thin line keeps one pixel.
        assert_eq!(ScaleDownOnly(10, 10).step(1000, 1), Step::Resize(10, 1));
        // Crops are cut to the image.
        assert_eq!(
            Crop(50, 50, 60, 40).step(80, 60),
            Step::Crop {
                x: 60,
                y: 40,
                w: 20,
                h: 20
            }
        );
        assert_eq!(Crop(500, 500, 0, 0).step(80, 60), Step::Keep);
        assert_eq!(AutoRotate.step(1, 1), Step::Orient);
        assert_eq!(Strip.step(1, 1), Step::Keep);
    }

    #[test]
    fn parameters_are_checked() {
        let n = |v: &[u64]| {
            v.iter()
                .map(|v| serde_yaml::Value::from(*v))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            Filter::parse("geometry/crop", &n(&[10, 10, 0, 0])),
            Ok(Some(Crop(10, 10, 0, 0)))
        );
        assert_eq!(Filter::parse("sepia", &[]), Ok(None));
        assert!(Filter::parse("geometry/scale", &n(&[10])).is_err());
        assert!(Filter::parse("geometry/scale", &n(&[10, 0])).is_err());
        assert!(Filter::parse("strip", &n(&[1])).is_err());
    }
}
