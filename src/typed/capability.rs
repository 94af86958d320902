//! Each public capability trait (`SelectAxis`, `SplitAxisInto`, `ContractWith`, …) is
//! implemented for every tuple shape, one impl per rank, forwarding to a hidden twin that holds
//! the rule (`SelectAxisRule`, …, implemented once for every shape). A shape parameter of a
//! generic function is no tuple: no impl applies, so a missing bound is reported as the
//! public trait to add (`X: SelectAxis<PAIR>`), never as the rule's internal walks. A concrete
//! shape reaches the rule, whose verdict names the axis at fault. `ContractWith`, `ConvBy` and
//! `PadOver` keep one blanket impl instead: the forwarding step would put their results at
//! model sizes past the 50 nested goals rust-analyzer explores (`scripts/ide_types.sh`).

/// One rank's impl of a public capability trait, forwarding every item to its rule:
/// `forward!([X0, X1] [generics] SelectAxis<A> => SelectAxisRule<A> { type Output; const AT: usize; })`.
macro_rules! forward {
    ($(#[$attr:meta])* [$($x:ident),*] [$($g:tt)*] $public:path => $rule:path
        { $(type $t:ident;)* $(const $c:ident: $ct:ty;)* }) => {
        $(#[$attr])*
        impl<$($x: $crate::typed::axis::Axis,)* $($g)*> $public for ($($x,)*)
        where
            Self: $rule,
        {
            $(type $t = <Self as $rule>::$t;)*
            $(const $c: $ct = <Self as $rule>::$c;)*
        }
    };
}

/// The impls of `$public` for every rank the type level supports (0 to 16), each forwarding
/// to `$rule` (see the module's docs).
macro_rules! capability {
    ($(#[$attr:meta])* [$($g:tt)*] $public:path => $rule:path { $($items:tt)* }) => {
        $crate::typed::capability::forward!($(#[$attr])* [] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6, X7] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6, X7, X8] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6, X7, X8, X9] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14] [$($g)*] $public => $rule { $($items)* });
        $crate::typed::capability::forward!($(#[$attr])* [X0, X1, X2, X3, X4, X5, X6, X7, X8, X9, X10, X11, X12, X13, X14, X15] [$($g)*] $public => $rule { $($items)* });
    };
}

pub(crate) use {capability, forward};
