//! Shape surgery at run time (rule book §18): rename, insert, select, slice, split, merge,
//! concatenate and stack, by name or position. The twin of `typed::surgery`; each function
//! takes shapes as written (sizes may be `?`) and gives the shape the operation leaves, or
//! [`Error::Surgery`] saying what is wrong.
//!
//! ```
//! use shapecast::dynamic::surgery;
//!
//! let img: shapecast::DynShape = "[?, CHANNEL: 3, H: 32, W: 32]".parse()?;
//! let parts = "[PH: 8, H4: 4]".parse()?;
//! let split = surgery::split_axis(&img, &"H".parse()?, &parts)?;
//! assert_eq!(split.to_string(), "[?, CHANNEL: 3, PH: 8, H4: 4, W: 32]");
//! let merged = surgery::merge_axes(&split, &["PH".parse()?, "H4".parse()?], Some(&"H".parse()?))?;
//! assert_eq!(merged.to_string(), "[?, CHANNEL: 3, H: 32, W: 32]");
//! assert!(surgery::split_axis(&img, &"H".parse()?, &"[PH: 8, H4: 3]".parse()?).is_err());
//! # Ok::<(), shapecast::Error>(())
//! ```

use crate::alloc_prelude::*;

use crate::values::error::Error;
use crate::values::selector::AxisSelector;
use crate::values::shape::{DynAxis, DynShape, Name, Size};

/// The refusal of an operation: `op` says what was asked, `reason` what is wrong.
fn refuse(op: impl Into<String>, reason: impl Into<String>) -> Error {
    Error::Surgery {
        op: op.into(),
        reason: reason.into(),
    }
}

/// The position of the axis `selector` picks in `shape`, or the refusal of `op`.
pub(crate) fn find(op: &str, shape: &DynShape, selector: &AxisSelector) -> Result<usize, Error> {
    selector.position(shape).ok_or_else(|| match selector {
        AxisSelector::Name(n) => refuse(op, format!("{shape} has no axis {n}")),
        AxisSelector::Pos(k) => refuse(
            op,
            format!("position {k} is past the rank {} of {shape}", shape.rank()),
        ),
    })
}

/// `shape` with `axes`, or the refusal of `op` when a name would occur twice (the axis that
/// already has it named).
fn rebuilt(op: &str, axes: Vec<DynAxis>) -> Result<DynShape, Error> {
    DynShape::new(axes).map_err(|e| match e {
        Error::RepeatedName { name, first, .. } => refuse(
            op,
            format!("{name} already names axis {first}: rename that axis first"),
        ),
        other => other,
    })
}

/// A name for messages: `N` or "no name".
fn shown(name: Option<&Name>) -> String {
    name.map_or_else(|| "no name".to_string(), |n| n.to_string())
}

/// The axis `axis` picks renamed to `to` (`None`: unnamed); sizes and data untouched. `to`
/// must not name another axis (renaming an axis to its own name is allowed).
///
/// ```
/// use shapecast::dynamic::surgery::rename;
/// let s = "[N: 2, C: 3]".parse()?;
/// assert_eq!(rename(&s, &"C".parse()?, Some(&"K".parse()?))?.to_string(), "[N: 2, K: 3]");
/// assert_eq!(rename(&s, &"C".parse()?, None)?.to_string(), "[N: 2, 3]");
/// assert!(rename(&s, &"C".parse()?, Some(&"N".parse()?)).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn rename(shape: &DynShape, axis: &AxisSelector, to: Option<&Name>) -> Result<DynShape, Error> {
    let op = format!("rename {axis} of {shape} to {}", shown(to));
    let k = find(&op, shape, axis)?;
    let mut axes = shape.axes().to_vec();
    axes[k].name = to.cloned();
    rebuilt(&op, axes)
}

/// A size-1 axis named `name` (or unnamed) inserted at position `at` (`0 ≤ at ≤ rank`).
///
/// ```
/// use shapecast::dynamic::surgery::insert_axis;
/// let s = "[H: 2, W: 3]".parse()?;
/// assert_eq!(insert_axis(&s, 0, Some(&"N".parse()?))?.to_string(), "[N: 1, H: 2, W: 3]");
/// assert_eq!(insert_axis(&s, 2, None)?.to_string(), "[H: 2, W: 3, 1]");
/// assert!(insert_axis(&s, 3, None).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn insert_axis(shape: &DynShape, at: usize, name: Option<&Name>) -> Result<DynShape, Error> {
    let op = format!("insert an axis ({}) at {at} into {shape}", shown(name));
    if at > shape.rank() {
        return Err(refuse(
            op,
            format!("position {at} is past the rank {}", shape.rank()),
        ));
    }
    let mut axes = shape.axes().to_vec();
    axes.insert(
        at,
        DynAxis {
            size: Size::Known(1),
            name: name.cloned(),
        },
    );
    rebuilt(&op, axes)
}

/// `shape` without the axis `axis` picks: the shape of `select` (one index of the axis).
///
/// ```
/// use shapecast::dynamic::surgery::select;
/// let s = "[?, CHANNEL: 3, H, W]".parse()?;
/// assert_eq!(select(&s, &"CHANNEL".parse()?)?.to_string(), "[?, H, W]");
/// assert!(select(&s, &"C".parse()?).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn select(shape: &DynShape, axis: &AxisSelector) -> Result<DynShape, Error> {
    let k = find(&format!("select along {axis} of {shape}"), shape, axis)?;
    let mut axes = shape.axes().to_vec();
    axes.remove(k);
    Ok(DynShape::from_axes_unchecked(axes))
}

/// `shape` with the axis `axis` picks sliced to `len` elements (`None`: a length known only at
/// run time, `?`); its name is kept. A static length above a static size is refused.
///
/// ```
/// use shapecast::dynamic::surgery::slice;
/// let s = "[T: 100, F: 8]".parse()?;
/// assert_eq!(slice(&s, &"T".parse()?, None)?.to_string(), "[T, F: 8]");
/// assert_eq!(slice(&s, &"T".parse()?, Some(10))?.to_string(), "[T: 10, F: 8]");
/// assert!(slice(&s, &"T".parse()?, Some(101)).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn slice(shape: &DynShape, axis: &AxisSelector, len: Option<usize>) -> Result<DynShape, Error> {
    let op = format!("slice {axis} of {shape}");
    let k = find(&op, shape, axis)?;
    let mut axes = shape.axes().to_vec();
    if let (Some(n), Size::Known(size)) = (len, axes[k].size)
        && n > size
    {
        return Err(refuse(
            op,
            format!("a window of {n} does not fit an axis of size {size}"),
        ));
    }
    axes[k].size = len.map_or(Size::Unknown, Size::Known);
    Ok(DynShape::from_axes_unchecked(axes))
}

/// The product of static sizes, or `None` when one is `?` (or the product overflows).
fn product(sizes: impl IntoIterator<Item = Size>) -> Option<usize> {
    sizes.into_iter().try_fold(1usize, |acc, s| match s {
        Size::Known(n) => acc.checked_mul(n),
        Size::Unknown => None,
    })
}

/// `shape` with the axis `axis` picks replaced by the axes of `parts` (row-major: the last
/// part varies fastest, as NumPy's `reshape`). When every size is static the parts' product
/// must equal the axis' size; a static product must divide a static size when one part is
/// `?`; at most one part may be `?` when the axis is static (it is then the quotient, found
/// at run time). Part names must not name other axes.
///
/// ```
/// use shapecast::dynamic::surgery::split_axis;
/// let s = "[N: 2, HW: 12]".parse()?;
/// assert_eq!(split_axis(&s, &"HW".parse()?, &"[H: 3, W: 4]".parse()?)?.to_string(), "[N: 2, H: 3, W: 4]");
/// assert_eq!(split_axis(&s, &"HW".parse()?, &"[H: 3, W]".parse()?)?.to_string(), "[N: 2, H: 3, W]");
/// assert!(split_axis(&s, &"HW".parse()?, &"[H: 5, W]".parse()?).is_err());
/// assert!(split_axis(&s, &"HW".parse()?, &"[N: 3, W: 4]".parse()?).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn split_axis(
    shape: &DynShape,
    axis: &AxisSelector,
    parts: &DynShape,
) -> Result<DynShape, Error> {
    let op = format!("split {axis} of {shape} into {parts}");
    let k = find(&op, shape, axis)?;
    let unknown = parts
        .axes()
        .iter()
        .filter(|a| a.size == Size::Unknown)
        .count();
    let known = product(
        parts
            .axes()
            .iter()
            .map(|a| a.size)
            .filter(|s| *s != Size::Unknown),
    )
    .ok_or_else(|| refuse(&op, "the parts' sizes overflow usize"))?;
    if let Size::Known(size) = shape.axes()[k].size {
        match unknown {
            0 if known != size => {
                return Err(refuse(
                    op,
                    format!("the parts hold {known} elements, the axis {size}"),
                ))
            }
            1 if known == 0 || !size.is_multiple_of(known) => {
                return Err(refuse(
                    op,
                    format!(
                        "the static parts ({known} elements) do not divide the axis' size {size}"
                    ),
                ))
            }
            0 | 1 => {}
            _ => {
                return Err(refuse(
                    op,
                    "two parts have sizes known only at run time: give all but one",
                ))
            }
        }
    }
    let mut axes = shape.axes().to_vec();
    axes.splice(k..=k, parts.axes().iter().cloned());
    rebuilt(&op, axes)
}

/// The positions of `axes` in `shape`, which must be adjacent and in order, or the refusal.
pub(crate) fn adjacent(
    op: &str,
    shape: &DynShape,
    axes: &[AxisSelector],
) -> Result<core::ops::Range<usize>, Error> {
    let Some(first) = axes.first() else {
        return Err(refuse(op, "no axes to merge"));
    };
    let start = find(op, shape, first)?;
    for (j, sel) in axes.iter().enumerate().skip(1) {
        let at = find(op, shape, sel)?;
        if at != start + j {
            return Err(refuse(
                op,
                format!(
                    "{sel} is axis {at}, not axis {}: merged axes must be adjacent and in order (align_to first)",
                    start + j
                ),
            ));
        }
    }
    Ok(start..start + axes.len())
}

/// `shape` with the adjacent axes `axes` (in order) merged into one axis named `into` (or
/// unnamed), whose size is their product (`?` when one of them is `?`). The names of the
/// merged axes are freed; `into` must not name another axis.
///
/// ```
/// use shapecast::dynamic::surgery::merge_axes;
/// let s = "[?, PH: 8, PW: 8, F: 48]".parse()?;
/// let m = merge_axes(&s, &["PH".parse()?, "PW".parse()?], Some(&"PATCH".parse()?))?;
/// assert_eq!(m.to_string(), "[?, PATCH: 64, F: 48]");
/// assert!(merge_axes(&s, &["PW".parse()?, "PH".parse()?], None).is_err()); // out of order
/// assert!(merge_axes(&s, &["PH".parse()?, "F".parse()?], None).is_err()); // not adjacent
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn merge_axes(
    shape: &DynShape,
    axes: &[AxisSelector],
    into: Option<&Name>,
) -> Result<DynShape, Error> {
    let list: Vec<String> = axes.iter().map(|a| a.to_string()).collect();
    let op = format!(
        "merge ({}) of {shape} into {}",
        list.join(", "),
        shown(into)
    );
    let range = adjacent(&op, shape, axes)?;
    let merged = &shape.axes()[range.clone()];
    let size = match product(merged.iter().map(|a| a.size)) {
        Some(n) => Size::Known(n),
        None if merged.iter().all(|a| a.size != Size::Unknown) => {
            return Err(refuse(
                &op,
                format!("their sizes' product overflows {}", usize::MAX),
            ))
        }
        None => Size::Unknown,
    };
    let mut out = shape.axes().to_vec();
    out.splice(
        range,
        [DynAxis {
            size,
            name: into.cloned(),
        }],
    );
    rebuilt(&op, out)
}

/// For every axis of `first`, the axis of `other` it meets (rule book §18): the namesake of
/// a named axis; for an unnamed one, the axis at the same position, which must be unnamed.
/// The ranks must agree.
pub(crate) fn aligned(op: &str, first: &DynShape, other: &DynShape) -> Result<Vec<usize>, Error> {
    if first.rank() != other.rank() {
        return Err(refuse(
            op,
            format!(
                "{first} has rank {} and {other} rank {}",
                first.rank(),
                other.rank()
            ),
        ));
    }
    first
        .axes()
        .iter()
        .enumerate()
        .map(|(k, axis)| match &axis.name {
            Some(n) => other
                .axes()
                .iter()
                .position(|b| b.name.as_ref() == Some(n))
                .ok_or_else(|| refuse(op, format!("{other} has no axis {n}"))),
            None if other.axes()[k].name.is_none() => Ok(k),
            None => Err(refuse(
                op,
                format!(
                    "axis {k} is unnamed in {first} and {} in {other}",
                    shown(other.axes()[k].name.as_ref())
                ),
            )),
        })
        .collect()
}

/// Whether two sizes can be equal: equal when both are static.
fn agree(a: Size, b: Size) -> bool {
    !matches!((a, b), (Size::Known(x), Size::Known(y)) if x != y)
}

/// The shape of the concatenation of `shapes` along the axis `axis` picks in the first (rule
/// book §18): every other axis meets its namesake (or the unnamed axis at its position) with
/// an equal size; the output has the first shape's order and the sizes along the axis added
/// (`?` when one is `?`).
///
/// ```
/// use shapecast::dynamic::surgery::concat;
/// let a: shapecast::DynShape = "[T: 3, F: 8]".parse()?;
/// let b = "[F: 8, T: 5]".parse()?;
/// assert_eq!(concat(&"T".parse()?, &[a.clone(), b])?.to_string(), "[T: 8, F: 8]");
/// assert!(concat(&"T".parse()?, &[a, "[T: 5, F: 4]".parse()?]).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn concat(axis: &AxisSelector, shapes: &[DynShape]) -> Result<DynShape, Error> {
    let all: Vec<String> = shapes.iter().map(|s| s.to_string()).collect();
    let op = format!("concatenate {} along {axis}", all.join(", "));
    let Some(first) = shapes.first() else {
        return Err(refuse(op, "no operands"));
    };
    let k = find(&op, first, axis)?;
    let mut axes = first.axes().to_vec();
    let mut total = Some(0usize);
    for other in shapes {
        let map = aligned(&op, first, other)?;
        for (j, (&o, a)) in map.iter().zip(first.axes()).enumerate() {
            let b = other.axes()[o].size;
            if j == k {
                total = match (total, b) {
                    (Some(t), Size::Known(n)) => Some(t.checked_add(n).ok_or_else(|| {
                        refuse(
                            &op,
                            format!("the sizes along axis {k} add up past {}", usize::MAX),
                        )
                    })?),
                    _ => None,
                };
            } else if !agree(a.size, b) {
                return Err(refuse(
                    &op,
                    format!(
                        "axis {j} ({}) has size {} in {first} and {} in {other}",
                        shown(a.name.as_ref()),
                        a.size,
                        b
                    ),
                ));
            } else if a.size == Size::Unknown {
                axes[j].size = b;
            }
        }
    }
    axes[k].size = total.map_or(Size::Unknown, Size::Known);
    rebuilt(&op, axes)
}

/// The shape of the stack of `shapes` (identical, names and sizes as written) under a new
/// leading axis named `name` (or unnamed) whose size is their count.
///
/// ```
/// use shapecast::dynamic::surgery::stack;
/// let a: shapecast::DynShape = "[H: 2, W: 3]".parse()?;
/// assert_eq!(stack(Some(&"N".parse()?), &[a.clone(), a.clone(), a.clone()])?.to_string(), "[N: 3, H: 2, W: 3]");
/// assert!(stack(None, &[a, "[W: 3, H: 2]".parse()?]).is_err());
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn stack(name: Option<&Name>, shapes: &[DynShape]) -> Result<DynShape, Error> {
    let all: Vec<String> = shapes.iter().map(|s| s.to_string()).collect();
    let op = format!("stack {} under {}", all.join(", "), shown(name));
    let Some(first) = shapes.first() else {
        return Err(refuse(op, "no operands"));
    };
    if let Some(other) = shapes.iter().find(|s| *s != first) {
        return Err(refuse(
            op,
            format!("{other} is not {first}: stacked shapes must be identical"),
        ));
    }
    let mut axes = vec![DynAxis {
        size: Size::Known(shapes.len()),
        name: name.cloned(),
    }];
    axes.extend(first.axes().iter().cloned());
    rebuilt(&op, axes)
}

/// Identical shapes stacked under a new axis named `name` (or unnamed) at position `at`,
/// whose size is their count: [`stack`] with the new axis moved from the front to `at`.
///
/// ```
/// use shapecast::dynamic::surgery::stack_at;
/// let s = stack_at(Some(&"PAIR".parse()?), 1, &["[HALF: 4]".parse()?, "[HALF: 4]".parse()?])?;
/// assert_eq!(s.to_string(), "[HALF: 4, PAIR: 2]");
/// assert!(stack_at(None, 2, &["[HALF: 4]".parse()?]).is_err()); // past the rank
/// # Ok::<(), shapecast::Error>(())
/// ```
pub fn stack_at(name: Option<&Name>, at: usize, shapes: &[DynShape]) -> Result<DynShape, Error> {
    let stacked = stack(name, shapes)?;
    let mut axes = stacked.axes().to_vec();
    if at >= axes.len() {
        let op = format!("stack under {} at {at}", shown(name));
        let reason = format!("position {at} is past the rank {}", axes.len() - 1);
        return Err(refuse(op, reason));
    }
    let new = axes.remove(0);
    axes.insert(at, new);
    DynShape::new(axes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(x: &str) -> DynShape {
        x.parse().unwrap()
    }
    fn sel(x: &str) -> AxisSelector {
        x.parse().unwrap()
    }
    fn name(x: &str) -> Name {
        Name::new(x.to_string()).unwrap()
    }

    #[test]
    fn refusals_say_what_was_asked_and_what_is_wrong() {
        let e = rename(&s("[N: 2, C: 3]"), &sel("C"), Some(&name("N"))).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot rename C of [N: 2, C: 3] to N: N already names axis 0: rename that axis first"
        );
        let e = select(&s("[H: 2, W: 3]"), &sel("2")).unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot select along position 2 of [H: 2, W: 3]: position 2 is past the rank 2 of [H: 2, W: 3]"
        );
        let e = merge_axes(&s("[A: 2, B: 3, C: 4]"), &[sel("A"), sel("C")], None).unwrap_err();
        assert!(e.to_string().contains("C is axis 2, not axis 1"), "{e}");
        assert!(e.is_refusal());
    }

    #[test]
    fn renaming_an_axis_to_its_own_name_is_allowed() {
        let x = s("[N: 2, C: 3]");
        assert_eq!(rename(&x, &sel("C"), Some(&name("C"))).unwrap(), x);
        assert_eq!(
            rename(&x, &sel("0"), None).unwrap().to_string(),
            "[2, C: 3]"
        );
    }

    #[test]
    fn split_and_merge_invert_each_other() {
        let x = s("[B, HW: 12, C: 3]");
        let y = split_axis(&x, &sel("HW"), &s("[H: 3, W: 4]")).unwrap();
        assert_eq!(y.to_string(), "[B, H: 3, W: 4, C: 3]");
        let z = merge_axes(&y, &[sel("H"), sel("W")], Some(&name("HW"))).unwrap();
        assert_eq!(z, x);
        // A `?` axis splits into anything; merging a `?` gives `?`.
        let d = split_axis(&s("[B, C: 3]"), &sel("B"), &s("[G: 2, B]")).unwrap();
        assert_eq!(d.to_string(), "[G: 2, B, C: 3]");
        assert_eq!(
            merge_axes(&d, &[sel("G"), sel("B")], None)
                .unwrap()
                .to_string(),
            "[?, C: 3]"
        );
        // Two `?` parts of a static axis cannot be found.
        assert!(split_axis(&x, &sel("HW"), &s("[H, W]")).is_err());
    }

    #[test]
    fn concat_aligns_by_name_and_fills_unknown_sizes() {
        let a = s("[?, T: 2, F]");
        let b = s("[?, F: 8, T: 3]");
        assert_eq!(
            concat(&sel("T"), &[a.clone(), b]).unwrap().to_string(),
            "[?, T: 5, F: 8]"
        );
        assert_eq!(
            concat(&sel("T"), &[a.clone(), s("[?, T, F: 8]")])
                .unwrap()
                .to_string(),
            "[?, T, F: 8]"
        );
        // The unnamed axis must face an unnamed one at its position.
        assert!(concat(&sel("T"), &[a.clone(), s("[B: 2, T: 2, F: 8]")]).is_err());
        assert!(concat(&sel("T"), &[a, s("[?, T: 2]")]).is_err());
        assert!(concat(&sel("T"), &[]).is_err());
    }

    #[test]
    fn stack_prepends_the_count() {
        let a = s("[H: 2, ?]");
        assert_eq!(
            stack(None, &[a.clone(), a.clone()]).unwrap().to_string(),
            "[2, H: 2, ?]"
        );
        assert!(stack(Some(&name("H")), &[a]).is_err());
        assert!(stack(None, &[]).is_err());
    }
}
