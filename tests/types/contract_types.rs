//! Contractions at the type level (rule book §17): result types and refusals as constants.

use shapecast::{names, shape, Contract, MatMul};
use static_assertions::assert_type_eq_all;

names!(BATCH, HEADS, SEQ, KSEQ, DK, DV, I, J, K, M, N);

type Q = shape![BATCH, HEADS, SEQ, DK: 16];
type Kt = shape![BATCH, HEADS, KSEQ, DK: 16];
type V = shape![BATCH, HEADS, KSEQ, DV: 16];
type Scores = shape![BATCH, HEADS, SEQ, KSEQ];

// The rule book's attention cases.
assert_type_eq_all!(Contract<Q, Kt, DK>, Scores);
assert_type_eq_all!(Contract<Q, Kt, (HEADS, DK)>, shape![BATCH, SEQ, KSEQ]);
assert_type_eq_all!(Contract<Scores, V, KSEQ>, shape![BATCH, HEADS, SEQ, DV: 16]);
// Plain matrix products by name; the right's extra names come last.
assert_type_eq_all!(Contract<shape![I: 2, J: 3], shape![J: 3, K: 4], J>, shape![I: 2, K: 4]);
assert_type_eq_all!(Contract<shape![J: 3, I: 2], shape![K: 4, J: 3], J>, shape![I: 2, K: 4]);
// A `?` contracted size is checked at run time; the static side's size is not needed.
assert_type_eq_all!(Contract<shape![I: 2, J], shape![J: 3, K: 4], J>, shape![I: 2, K: 4]);
// Batch axes broadcast (outer rule): unnamed axes pair as NumPy among the unnamed.
assert_type_eq_all!(Contract<shape![5, I: 2, J: 3], shape![1, J: 3, K: 4], J>, shape![5, I: 2, K: 4]);
assert_type_eq_all!(Contract<shape![I: 2, J: 3], shape![7, J: 3], J>, shape![7, I: 2]);
// Everything contracted: a scalar.
assert_type_eq_all!(Contract<shape![I: 2, J: 3], shape![J: 3, I: 2], (I, J)>, shape![]);

// matmul by position.
assert_type_eq_all!(MatMul<shape![2, 3], shape![3, 4]>, shape![2, 4]);
assert_type_eq_all!(MatMul<shape![16, 256, 256], shape![256, 256]>, shape![16, 256, 256]);
assert_type_eq_all!(MatMul<shape![?, 1, 2, 3], shape![5, 3, 4]>, shape![?, 5, 2, 4]);
assert_type_eq_all!(MatMul<shape![3], shape![3]>, shape![]);
assert_type_eq_all!(MatMul<shape![3], shape![2, 3, 4]>, shape![2, 4]);
assert_type_eq_all!(MatMul<shape![2, 2, 3], shape![3]>, shape![2, 2]);
assert_type_eq_all!(MatMul<shape![M: 2, K: 3], shape![K: 3, N: 4]>, shape![M: 2, N: 4]);
assert_type_eq_all!(MatMul<shape![M: 2, 3], shape![K: 3, N: 4]>, shape![M: 2, N: 4]);
assert_type_eq_all!(MatMul<shape![BATCH, M: 2, K: 3], shape![K: 3, N]>, shape![BATCH, M: 2, N]);
assert_type_eq_all!(MatMul<shape![2, ?], shape![3, 4]>, shape![2, 4]);
