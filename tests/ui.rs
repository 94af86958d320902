//! Compile errors are part of the API: every file in `ui-tests/` must fail to compile with
//! exactly the diagnostic in its `.stderr` (at most 20 lines, no typenum internals, no
//! `shapecast::typed::` path). The cases are grouped by area: `rules/` (broadcasting, one
//! file prefix per rule), `tensors/`, `reduce/`, `contract/`, `surgery/`, `conv/`, `pool/`, `pad/`, `gather/`, `blocks/` (attention, norms, rotary embeddings), `train/` (gradients and parameters), `generic/` (generic code missing an operation's bound: the error names the bound), `mistakes/`.

#[test]
fn rejected_shapes_read_well() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui-tests/*/*.rs");
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
