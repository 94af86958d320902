//! Loading and saving against files NumPy and the `safetensors` package wrote
//! (`scripts/gen_io_files.py`, in tests/data/io): values, shapes checked against the types,
//! and every failure an error, never a panic or a huge allocation.
#![cfg(all(feature = "npy", feature = "safetensors"))]

use shapecast::{io, names, shape, DynTensor, Error, Tensor};

names!(EMBED, HIDDEN, CLASS, ROW, COL);

fn data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/io")
        .join(name)
}

#[test]
fn npy_files_numpy_wrote_read_as_numpy_holds_them() {
    let t = Tensor::<f32, shape![ROW: 2, COL: 3]>::read_npy(data("f32_2x3.npy")).unwrap();
    assert_eq!(t.data(), &[0.0, 0.25, 0.5, 0.75, 1.0, 1.25]);
    // Fortran order comes back row-major: np.arange(12).reshape(3, 4).
    let f = Tensor::<f64, shape![?, ?]>::read_npy(data("f64_fortran_3x4.npy")).unwrap();
    assert_eq!(f.sizes(), &[3, 4]);
    assert_eq!(
        f.data(),
        (0..12).map(|v| v as f64).collect::<Vec<_>>().as_slice()
    );
    let be = DynTensor::<i64>::read_npy(data("i64_big_endian_5.npy")).unwrap();
    assert_eq!(be.data(), &[-2, -1, 0, 1, 1 << 40]);
    let b = Tensor::<bool, shape![2, 2]>::read_npy(data("bool_2x2.npy")).unwrap();
    assert_eq!(b.data(), &[true, false, false, true]);
    let s = Tensor::<f32, shape![]>::read_npy(data("f32_scalar.npy")).unwrap();
    assert_eq!(s.data(), &[3.5]);
    let z = Tensor::<u8, shape![?, COL: 5]>::read_npy(data("u8_0x5.npy")).unwrap();
    assert_eq!((z.sizes(), z.data().len()), (&[0, 5][..], 0));
}

#[test]
fn npy_round_trips_and_numpy_reads_what_is_written() {
    let dir = std::env::temp_dir().join(format!("shapecast-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let t =
        Tensor::<f64, shape![ROW, COL: 3]>::from_fn(&[4, 3], |i| i[0] as f64 - 0.5 * i[1] as f64)
            .unwrap();
    let p = dir.join("t.npy");
    t.write_npy(&p).unwrap();
    assert_eq!(Tensor::<f64, shape![ROW, COL: 3]>::read_npy(&p).unwrap(), t);
    // NumPy's format (np.load reads it: checked by hand with NumPy 2.4).
    let bytes = std::fs::read(&p).unwrap();
    assert!(bytes.starts_with(b"\x93NUMPY"));
    let header = String::from_utf8_lossy(&bytes[10..bytes.len() - 96]);
    assert!(
        header.contains("'descr': '<f8'") && header.contains("'shape': (4, 3, )"),
        "{header}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_weight_stored_transposed_is_refused_naming_the_shape_to_declare() {
    // np.arange(8).reshape(4, 2): stored [HIDDEN, EMBED] = [4, 2].
    let err = Tensor::<f32, shape![EMBED: 2, HIDDEN: 4]>::read_npy(data("w_4x2.npy")).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::FileShape { .. }));
    assert!(msg.ends_with("w_4x2.npy: the file holds [4, 2], which does not fit [EMBED: 2, HIDDEN: 4]; its sizes are [EMBED: 2, HIDDEN: 4] reordered: declare [HIDDEN: 4, EMBED: 2] to read it as stored"), "{msg}");
    let ok = Tensor::<f32, shape![HIDDEN: 4, EMBED: 2]>::read_npy(data("w_4x2.npy")).unwrap();
    assert_eq!(ok.data()[..3], [0.0, 1.0, 2.0]);
    // A `?` size fits any stored size, and is placed after the static ones.
    let err = Tensor::<f32, shape![EMBED: 2, HIDDEN]>::read_npy(data("w_4x2.npy")).unwrap_err();
    assert!(
        err.to_string().contains("declare [HIDDEN, EMBED: 2]"),
        "{err}"
    );
    // Sizes that no order fits: no suggestion; another rank: none either.
    let err = Tensor::<f32, shape![EMBED: 3, HIDDEN: 4]>::read_npy(data("w_4x2.npy")).unwrap_err();
    assert!(!err.to_string().contains("declare"), "{err}");
    let err = Tensor::<f32, shape![EMBED: 8]>::read_npy(data("w_4x2.npy")).unwrap_err();
    assert!(
        err.to_string()
            .contains("[4, 2], which does not fit [EMBED: 8]"),
        "{err}"
    );
}

#[test]
fn bad_npy_files_are_errors() {
    let err = |name: &str| Tensor::<f32, shape![?]>::read_npy(data(name)).unwrap_err();
    assert!(matches!(err("missing.npy"), Error::Io { .. }));
    assert!(matches!(err("not_npy.npy"), Error::BadFile { .. }));
    assert!(matches!(err("object.npy"), Error::BadFile { .. }));
    let truncated = err("truncated.npy");
    assert!(
        matches!(
            truncated,
            Error::Truncated {
                promised: 24,
                holds: 19,
                ..
            }
        ),
        "{truncated}"
    );
    assert!(
        truncated
            .to_string()
            .ends_with("truncated.npy is truncated: the data needs 24 bytes, the file holds 19"),
        "{truncated}"
    );
    assert!(matches!(err("trailing.npy"), Error::BadFile { .. }));
    // 2^60 f32 promised: refused from the file's length, nothing allocated.
    assert!(matches!(
        err("huge_shape.npy"),
        Error::Truncated {
            promised: 4_611_686_018_427_387_904,
            ..
        }
    ));
    // Elements of another type.
    let e = Tensor::<f64, shape![?, ?]>::read_npy(data("f32_2x3.npy")).unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "{}: the elements are '<f4', not f64",
            data("f32_2x3.npy").display()
        )
    );
}

#[test]
fn safetensors_weights_come_out_by_name_with_checked_shapes() {
    let w = io::load_safetensors(data("weights.safetensors")).unwrap();
    assert_eq!(w.names(), vec!["bias", "mask", "w_hidden_embed", "wq"]);
    let wq = w.get::<f32, shape![HIDDEN: 4, CLASS: 3]>("wq").unwrap();
    assert_eq!(wq.data()[..4], [-2.5, -2.0, -1.5, -1.0]);
    assert_eq!(
        w.get::<i32, shape![CLASS: 3]>("bias").unwrap().data(),
        &[1, -2, 3]
    );
    assert_eq!(
        w.get::<bool, shape![2, 2]>("mask").unwrap().data(),
        &[true, false, true, true]
    );
    assert_eq!(
        w.get_dyn::<f32>("w_hidden_embed")
            .unwrap()
            .shape()
            .to_string(),
        "[4, 2]"
    );
    // Declared the wrong way round.
    let e = w
        .get::<f32, shape![EMBED: 2, HIDDEN: 4]>("w_hidden_embed")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("tensor \"w_hidden_embed\": the file holds [4, 2]")
            && e.contains("declare [HIDDEN: 4, EMBED: 2]"),
        "{e}"
    );
    // Another element type, another name.
    let e = w
        .get::<f64, shape![CLASS: 3]>("bias")
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("tensor \"bias\": the elements are I32, not f64"),
        "{e}"
    );
    let e = w
        .get::<f32, shape![CLASS: 3]>("biases")
        .unwrap_err()
        .to_string();
    assert!(
        e.ends_with("has no tensor named \"biases\" (it has bias, mask, w_hidden_embed, wq)"),
        "{e}"
    );
}

#[test]
fn bad_safetensors_files_are_errors() {
    assert!(matches!(
        io::load_safetensors(data("missing.safetensors")),
        Err(Error::Io { .. })
    ));
    for name in [
        "truncated.safetensors",
        "huge_header.safetensors",
        "not_json.safetensors",
        "f32_2x3.npy",
    ] {
        let e = io::load_safetensors(data(name)).unwrap_err();
        assert!(matches!(e, Error::BadFile { .. }), "{name}: {e}");
    }
}

#[test]
fn safetensors_round_trip() {
    let dir = std::env::temp_dir().join(format!("shapecast-st-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let a =
        Tensor::<f32, shape![ROW, COL: 2]>::from_fn(&[3, 2], |i| (i[0] * 2 + i[1]) as f32 / 3.0)
            .unwrap();
    let b = Tensor::<f32, shape![COL: 2]>::from_array([1.0, -1.0]);
    let p = dir.join("w.safetensors");
    io::save_safetensors(&p, &[("a", &a.to_dyn()), ("b", &b.to_dyn())]).unwrap();
    let w = io::load_safetensors(&p).unwrap();
    assert_eq!(w.get::<f32, shape![ROW, COL: 2]>("a").unwrap(), a);
    assert_eq!(w.get::<f32, shape![COL: 2]>("b").unwrap(), b);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A version-1 `.npy` file of `f32` with the header's shape tuple `shape` and no data.
fn npy_with_shape(name: &str, shape: &str) -> std::path::PathBuf {
    let mut header = format!("{{'descr': '<f4', 'fortran_order': False, 'shape': {shape}, }}");
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut bytes = b"\x93NUMPY\x01\x00".to_vec();
    bytes.extend((header.len() as u16).to_le_bytes());
    bytes.extend(header.as_bytes());
    let path = std::env::temp_dir().join(format!("shapecast-{}-{name}.npy", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn empty_npy_files_whose_other_sizes_overflow_are_errors() {
    // Empty shapes whose other sizes multiply past what an array can hold: NumPy refuses
    // them, and so does the reader, before any product the .npy crate would overflow on.
    for (name, shape) in [
        ("wide", "(0, 18446744073709551615, 2)"),
        ("strides", "(0, 9223372036854775808, 4)"),
    ] {
        let path = npy_with_shape(name, shape);
        let e = DynTensor::<f32>::read_npy(&path).unwrap_err();
        assert!(
            e.to_string().contains("larger than any array can be"),
            "{e}"
        );
        std::fs::remove_file(path).unwrap();
    }
    // An empty shape whose other sizes fit reads as the empty tensor.
    let path = npy_with_shape("fits", "(0, 4294967296, 3)");
    let t = DynTensor::<f32>::read_npy(&path).unwrap();
    assert_eq!(t.sizes(), &[0, 4_294_967_296, 3]);
    std::fs::remove_file(path).unwrap();
}

names!(OUT, IN);

#[test]
fn axis_names_saved_with_a_weight_catch_a_square_transposition() {
    let dir = std::env::temp_dir().join(format!("shapecast-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let w = Tensor::<f32, shape![OUT: 3, IN: 3]>::from_fn(&[3, 3], |i| (i[0] * 3 + i[1]) as f32)
        .unwrap();
    let plain = DynTensor::from_vec("[3]".parse().unwrap(), vec![1.0f32, 2.0, 3.0]).unwrap();
    let p = dir.join("square.safetensors");
    io::save_safetensors(&p, &[("w", &w.to_dyn()), ("b", &plain)]).unwrap();
    let loaded = io::load_safetensors(&p).unwrap();
    // The sizes fit either way round; the recorded names do not.
    let err = loaded.get::<f32, shape![IN: 3, OUT: 3]>("w").unwrap_err();
    assert!(matches!(err, Error::FileNames { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("saved as [OUT: 3, IN: 3], which does not fit [IN: 3, OUT: 3]"),
        "{text}"
    );
    assert_eq!(loaded.get::<f32, shape![OUT: 3, IN: 3]>("w").unwrap(), w);
    // Unnamed or partly named declarations check only the names they give.
    assert!(loaded.get::<f32, shape![3, 3]>("w").is_ok());
    assert!(loaded.get::<f32, shape![OUT, 3]>("w").is_ok());
    assert!(loaded.get::<f32, shape![3, OUT: 3]>("w").is_err());
    // The run-time read carries the names; a tensor saved without names has none.
    assert_eq!(
        loaded.get_dyn::<f32>("w").unwrap().shape().to_string(),
        "[OUT: 3, IN: 3]"
    );
    assert_eq!(
        loaded.get_dyn::<f32>("b").unwrap().shape().to_string(),
        "[3]"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn recorded_axes_that_do_not_parse_or_fit_are_errors() {
    use std::collections::HashMap;
    let dir = std::env::temp_dir().join(format!("shapecast-badaxes-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes: Vec<u8> = [1.0f32, 2.0].iter().flat_map(|v| v.to_le_bytes()).collect();
    for (recorded, says) in [
        ("[OUT: 3", "do not parse"),
        ("[OUT: 3]", "do not fit its sizes [2]"),
        ("[OUT, IN]", "do not fit its sizes [2]"),
    ] {
        let view =
            safetensors::tensor::TensorView::new(safetensors::Dtype::F32, vec![2], &bytes).unwrap();
        let info = HashMap::from([("shapecast.axes.w".to_string(), recorded.to_string())]);
        let p = dir.join("bad.safetensors");
        safetensors::serialize_to_file([("w", view)], Some(info), &p).unwrap();
        let err = io::load_safetensors(&p).unwrap_err();
        assert!(matches!(err, Error::BadFile { .. }), "{recorded}: {err}");
        assert!(err.to_string().contains(says), "{recorded}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `.npy` file of the given version with `header` as its dict (padded as NumPy pads) and
/// `data` after it.
fn crafted_npy(name: &str, version: u8, header: &str, data: &[u8]) -> std::path::PathBuf {
    let mut bytes = vec![0x93, b'N', b'U', b'M', b'P', b'Y', version, 0];
    let mut text = header.to_string();
    text.push('\n');
    if version == 1 {
        bytes.extend((text.len() as u16).to_le_bytes());
    } else {
        bytes.extend((text.len() as u32).to_le_bytes());
    }
    bytes.extend(text.as_bytes());
    bytes.extend(data);
    let path = std::env::temp_dir().join(format!("shapecast-{}-{name}.npy", std::process::id()));
    std::fs::write(&path, bytes).unwrap();
    path
}

/// The adversarial headers of an attacker's sweep: each refused at once, by a one-line error
/// naming the file and what is wrong, and nothing allocated for data the file does not hold.
#[test]
fn crafted_npy_headers_are_refused_quickly_and_by_name() {
    let read = |path: &std::path::Path| DynTensor::<f32>::read_npy(path).unwrap_err();
    let deep = format!(
        "{{'descr': {}'<f4'{}, 'fortran_order': False, 'shape': (2, 3), }}",
        "[".repeat(20),
        "]".repeat(20)
    );
    let cases = [
        ("nested", deep.as_str(), "structured dtype"),
        ("list_shape", "{'descr': '<f4', 'fortran_order': False, 'shape': [1099511627776, 1099511627776], }", "expected '('"),
        ("hex_shape", "{'descr': '<f4', 'fortran_order': False, 'shape': (0x10000000000, 2), }", "decimal digits"),
        ("underscores", "{'descr': '<f4', 'fortran_order': False, 'shape': (1_000_000, 2), }", "decimal digits"),
        ("second_shape", "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'shape': (1099511627776, 1099511627776), }", "appears twice"),
        ("escaped_key", "{'descr': '<f4', 'fortran_order': False, '\\x73hape': (2,), }", "escapes"),
        ("strings", "{'descr': '<U3', 'fortran_order': False, 'shape': (2,), }", "strings (\"<U3\")"),
        ("dates", "{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (2,), }", "datetime64"),
        // Found by the fuzz target: a multi-byte first character in the type string.
        ("wide_kind", "{'descr': '<\u{11d}4', 'fortran_order': False, 'shape': (2,), }", "an unknown type"),
        ("huge_empty", "{'descr': '<f4', 'fortran_order': False, 'shape': (9223372036854775808, 0), }", "larger than any array"),
        ("rank_65", &format!("{{'descr': '<f4', 'fortran_order': False, 'shape': ({}), }}", "1, ".repeat(65)), "more than 64 axes"),
    ];
    for (name, header, says) in cases {
        let path = crafted_npy(name, 1, header, &[0; 24]);
        let started = std::time::Instant::now();
        let e = read(&path);
        let message = e.to_string();
        assert!(matches!(e, Error::BadFile { .. }), "{name}: {message}");
        assert!(message.contains(says), "{name}: {message}");
        assert!(
            message.contains(&format!("{name}.npy")),
            "{name}: {message}"
        );
        assert!(!message.contains('\n'), "{name}: {message}");
        // A bound on the parser's work, not a timing target: the exponential parser took
        // seconds at depth 20.
        assert!(
            started.elapsed() < std::time::Duration::from_secs(1),
            "{name}"
        );
        std::fs::remove_file(path).unwrap();
    }
    // A version-2 length field asking for 4 GiB of header in a 12-byte file: refused from the
    // file's length before anything is read.
    let path = std::env::temp_dir().join(format!("shapecast-{}-v2.npy", std::process::id()));
    std::fs::write(
        &path,
        [
            0x93, b'N', b'U', b'M', b'P', b'Y', 2, 0, 0xff, 0xff, 0xff, 0xff,
        ],
    )
    .unwrap();
    let e = read(&path);
    assert!(
        matches!(e, Error::BadFile { .. })
            && e.to_string().contains("above NumPy's limit of 10000"),
        "{e}"
    );
    std::fs::write(
        &path,
        [0x93, b'N', b'U', b'M', b'P', b'Y', 2, 0, 0x10, 0x27, 0, 0],
    )
    .unwrap();
    let e = read(&path);
    assert!(
        matches!(
            e,
            Error::Truncated {
                what: "the header",
                promised: 10_012,
                holds: 12,
                ..
            }
        ),
        "{e}"
    );
    // Cut inside the preamble.
    std::fs::write(&path, [0x93, b'N', b'U', b'M']).unwrap();
    assert!(matches!(
        read(&path),
        Error::Truncated {
            what: "the preamble",
            ..
        }
    ));
    std::fs::remove_file(path).unwrap();
    // The same spelling NumPy writes reads.
    let ok = crafted_npy(
        "plain",
        1,
        "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
        &[0; 24],
    );
    assert_eq!(DynTensor::<f32>::read_npy(&ok).unwrap().sizes(), &[2, 3]);
    std::fs::remove_file(ok).unwrap();
}

/// A `.safetensors` file whose header gets one tensor's byte count or offsets wrong: the error
/// names that tensor and what is wrong, on one line.
#[test]
fn bad_safetensors_entries_are_named() {
    let write = |name: &str, header: &str, data: usize| {
        let mut bytes = (header.len() as u64).to_le_bytes().to_vec();
        bytes.extend(header.as_bytes());
        bytes.extend(vec![0u8; data]);
        let path = std::env::temp_dir().join(format!(
            "shapecast-{}-{name}.safetensors",
            std::process::id()
        ));
        std::fs::write(&path, bytes).unwrap();
        path
    };
    let cases = [
        (
            "short",
            r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"w":{"dtype":"F32","shape":[2,3],"data_offsets":[8,28]}}"#,
            28,
            r#"tensor "w": its shape [2, 3] of F32 takes 24 bytes, its data offsets 8..28 hold 20"#,
        ),
        (
            "gap",
            r#"{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},"b":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}}"#,
            16,
            r#""b""#,
        ),
    ];
    for (name, header, data, says) in cases {
        let path = write(name, header, data);
        let e = shapecast::io::load_safetensors(&path).unwrap_err();
        let message = e.to_string();
        assert!(matches!(e, Error::BadFile { .. }), "{message}");
        assert!(message.contains(says), "{name}: {message}");
        assert!(!message.contains('\n'), "{name}: {message}");
        std::fs::remove_file(path).unwrap();
    }
}

/// Found by the `npy` fuzz target: a Fortran-order file of rank 18 (above the type level's 16)
/// read at run time; its layout goes through an untyped view of that rank.
#[test]
fn fortran_files_of_high_rank_read_at_run_time() {
    let mut sizes = [1usize; 18];
    sizes[0] = 2;
    sizes[17] = 3;
    let shape = format!(
        "({})",
        sizes.iter().map(|n| format!("{n}, ")).collect::<String>()
    );
    let header = format!("{{'descr': '<i8', 'fortran_order': True, 'shape': {shape}}}");
    let data: Vec<u8> = (0..6i64).flat_map(|v| v.to_le_bytes()).collect();
    let path = crafted_npy("fortran_rank_18", 1, &header, &data);
    let t = DynTensor::<i64>::read_npy(&path).unwrap();
    assert_eq!(t.sizes(), &sizes[..]);
    // Column-major [2, 3] (ones between): element (i, j) at j * 2 + i.
    assert_eq!(t.data(), &[0, 2, 4, 1, 3, 5]);
    std::fs::remove_file(path).unwrap();
}
