use shapecast::{names, shape, MergeAxes, S};
names!(PH, PW, PATCH);

fn main() {
    let _: Option<MergeAxes<shape![?, PH: 8, PW: 8], (PH, PW), PATCH<S<63>>>> = None;
}
