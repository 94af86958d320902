//! The shape parser on arbitrary input: never a panic, and whatever parses prints back to
//! a string that parses to the same shape.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shapecast::DynShape;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(shape) = text.parse::<DynShape>() {
        let printed = shape.to_string();
        let again: DynShape = printed.parse().expect("a printed shape parses");
        assert_eq!(again, shape, "round trip of {text:?}");
        assert_eq!(again.to_string(), printed);
    }
});
