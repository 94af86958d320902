//! Compile errors are part of the API: every file in `ui-tests/` must fail to compile with
//! exactly the diagnostic in its `.stderr` (at most 20 lines, no typenum internals, no
//! `shapecast::typed::` path). The cases are grouped by area: `rules/` (broadcasting, one
//! file prefix per rule), `tensors/`, `reduce/`, `contract/`, `surgery/`, `conv/`, `pool/`, `pad/`, `upsample/`, `gather/`, `blocks/` (attention, norms, rotary embeddings), `train/` (gradients and parameters), `generic/` (generic code missing an operation's bound: the error names the bound), `mistakes/`.

#[test]
fn rejected_shapes_read_well() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let t = trybuild::TestCases::new();
    let quotes_std = std_source_installed();
    let mut cases: Vec<String> = std::fs::read_dir(root.join("ui-tests"))
        .unwrap()
        .flat_map(|area| std::fs::read_dir(area.unwrap().path()).unwrap())
        .map(|file| file.unwrap().path())
        .filter(|path| path.extension().is_some_and(|e| e == "rs"))
        .map(|path| {
            path.strip_prefix(root)
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    cases.sort();
    for case in cases {
        if QUOTE_STD.contains(&case.as_str()) && !quotes_std {
            eprintln!("{case}: not checked, its error quotes the standard library's source, which rustc has only with the rust-src component (`rustup component add rust-src`; .ci/run adds it)");
            continue;
        }
        t.compile_fail(case);
    }
}

/// The cases whose `.stderr` quotes the standard library's source (the note under a failed
/// `const` evaluation points into `core`'s `panic!`): rustc prints those lines only where
/// the `rust-src` component is installed, and a one-line note instead elsewhere.
const QUOTE_STD: &[&str] = &["ui-tests/tensors/const_size_outside_table.rs"];

/// Whether the toolchain that builds the cases has the standard library's source.
fn std_source_installed() -> bool {
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let Ok(out) = std::process::Command::new(rustc)
        .args(["--print", "sysroot"])
        .output()
    else {
        return false;
    };
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    std::path::Path::new(&sysroot)
        .join("lib/rustlib/src/rust/library/core/src/panic.rs")
        .exists()
}

#[test]
fn stderr_files_are_short_and_free_of_typenum() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ui-tests");
    let mut count = 0;
    let areas = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path());
    let files = areas.flat_map(|area| std::fs::read_dir(area).unwrap().map(|e| e.unwrap().path()));
    for path in files {
        if path.extension().is_some_and(|e| e == "stderr") {
            count += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            assert!(
                text.lines().count() <= 20,
                "{path:?} has more than 20 lines"
            );
            for noise in ["UInt<", "UTerm", "B0", "B1", "shapecast::typed::"] {
                assert!(!text.contains(noise), "{path:?} shows {noise}");
            }
        }
    }
    assert!(count >= 25, "only {count} rejected cases");
}

/// The README quotes the compile error of its first program's mistake as the compiler prints
/// it, the text of `ui-tests/tensors/tensor_add_shapes.stderr`, and the guide's shapes page
/// that of `ui-tests/rules/named_size.stderr`, verbatim.
#[test]
fn the_readme_quotes_a_real_stderr() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let stderr =
        std::fs::read_to_string(root.join("ui-tests/tensors/tensor_add_shapes.stderr")).unwrap();
    assert!(
        readme.contains(stderr.trim_end()),
        "README.md no longer quotes ui-tests/tensors/tensor_add_shapes.stderr verbatim"
    );
    let guide = std::fs::read_to_string(root.join("docs/guide/shapes.md")).unwrap();
    let stderr = std::fs::read_to_string(root.join("ui-tests/rules/named_size.stderr")).unwrap();
    assert!(
        guide.contains(stderr.trim_end()),
        "docs/guide/shapes.md no longer quotes ui-tests/rules/named_size.stderr verbatim"
    );
}
