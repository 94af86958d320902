//! The macros of [shapecast](https://docs.rs/shapecast): `shape!` writes a type-level shape in
//! the notation of the rule book, `names!` declares axis names. Use them through `shapecast`,
//! which re-exports both.

#![warn(missing_docs)]

use proc_macro::TokenStream;
use proc_macro2::{Span, TokenStream as TokenStream2};
use quote::{format_ident, quote, quote_spanned};
use syn::parse::{Parse, ParseStream};
use syn::punctuated::Punctuated;
use syn::{Ident, LitInt, Token, Visibility};

/// One axis as written: `10`, `?`, `H`, `H: 256`, `H: ?`, `H: E` or `H: {2 * E}` (a
/// constant), `{E}`.
enum AxisSpec {
    Size(Size),
    Named(Ident, Size),
}

/// A size as written: a literal, `?` (`Dyn`), or a constant expression.
enum Size {
    Lit(LitInt),
    Dyn,
    Const(TokenStream2),
}

/// A constant size: a path (`E`, `config::E`, `Self::E` in a trait's default) or a block
/// (`{2 * E}`).
fn parse_const(input: ParseStream) -> syn::Result<TokenStream2> {
    if input.peek(syn::token::Brace) {
        let content;
        syn::braced!(content in input);
        let expr: syn::Expr = content.parse()?;
        return Ok(quote!(#expr));
    }
    let path: syn::Path = input.parse()?;
    Ok(quote!(#path))
}

fn parse_size(input: ParseStream) -> syn::Result<Size> {
    if input.peek(Token![?]) {
        input.parse::<Token![?]>()?;
        return Ok(Size::Dyn);
    }
    if input.peek(syn::token::Brace)
        || input.peek(Ident)
        || input.peek(Token![::])
        || input.peek(Token![Self])
    {
        return parse_const(input).map(Size::Const);
    }
    if input.peek(Token![-]) {
        let minus: Token![-] = input.parse()?;
        return Err(syn::Error::new(
            minus.spans[0],
            "negative size: an axis size is a whole number (0 allowed) or `?`",
        ));
    }
    let lookahead = input.lookahead1();
    if lookahead.peek(syn::LitFloat) {
        let f: syn::LitFloat = input.parse()?;
        return Err(syn::Error::new(
            f.span(),
            format!("`{f}` is not a size: an axis size is a whole number or `?`"),
        ));
    }
    if !lookahead.peek(LitInt) {
        return Err(input.error(
            "expected an axis: a size (`3`), `?`, a name (`H`), `H: 3`, `H: E` or `H: {2 * E}` (a constant)",
        ));
    }
    let lit: LitInt = input.parse()?;
    if !lit.suffix().is_empty() {
        return Err(syn::Error::new(
            lit.span(),
            "write the size without a suffix (`3`, not `3usize`)",
        ));
    }
    lit.base10_parse::<usize>()
        .map_err(|_| syn::Error::new(lit.span(), format!("size {lit} does not fit usize")))?;
    Ok(Size::Lit(lit))
}

impl Parse for AxisSpec {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(Ident) {
            let name: Ident = input.parse()?;
            if name == "_" {
                return Err(syn::Error::new(name.span(), "`_` cannot name an axis"));
            }
            let size = if input.peek(Token![:]) {
                input.parse::<Token![:]>()?;
                parse_size(input)?
            } else {
                Size::Dyn
            };
            Ok(AxisSpec::Named(name, size))
        } else if input.peek(syn::token::Brace) {
            // An unnamed axis of a constant size: `{E}` (a bare `E` is a name).
            Ok(AxisSpec::Size(Size::Const(parse_const(input)?)))
        } else {
            Ok(AxisSpec::Size(parse_size(input)?))
        }
    }
}

struct ShapeSpec(Punctuated<AxisSpec, Token![,]>);

impl Parse for ShapeSpec {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(ShapeSpec(Punctuated::parse_terminated(input)?))
    }
}

#[path = "generated/max_rank.rs"]
mod max_rank;
use max_rank::{MAX_TYPE_RANK, SIZE_TABLE_MAX, TABLE_EXTRAS};

/// Whether the crate's size table names `S<n>` alone: every size up to `SIZE_TABLE_MAX`, and
/// the listed sizes beyond it (`TABLE_EXTRAS`: typenum's 2^k, 2^k - 1 and 10^k, multiples of
/// 64 and of 1000 up to 65,536, common vocabulary sizes).
fn in_size_table(n: usize) -> bool {
    n <= SIZE_TABLE_MAX || TABLE_EXTRAS.binary_search(&(n as u64)).is_ok()
}

/// The size type for a size as written: `S<N>`, or `S<N, bits>` for a literal beyond the
/// crate's size table; a constant is `S<{ E }>`, whose value must be in the table (a
/// constant's value is not known to the macro; an error names the size otherwise).
fn size_type(size: &Size) -> TokenStream2 {
    let lit = match size {
        Size::Dyn => return quote!(::shapecast::Dyn),
        Size::Const(expr) => {
            return quote!(::shapecast::S<{ ::shapecast::__private::table_size(#expr) }>)
        }
        Size::Lit(lit) => lit,
    };
    let n: usize = lit.base10_parse().expect("checked when parsed");
    let span = lit.span();
    let n_lit = proc_macro2::Literal::usize_unsuffixed(n);
    if in_size_table(n) {
        return quote_spanned!(span=> ::shapecast::S<#n_lit>);
    }
    let mut bits = quote!(::shapecast::__private::typenum::UTerm);
    for i in (0..usize::BITS - n.leading_zeros()).rev() {
        let bit = if (n >> i) & 1 == 1 {
            quote!(::shapecast::__private::typenum::B1)
        } else {
            quote!(::shapecast::__private::typenum::B0)
        };
        bits = quote!(::shapecast::__private::typenum::UInt<#bits, #bit>);
    }
    quote_spanned!(span=> ::shapecast::S<#n_lit, #bits>)
}

/// A type-level shape in the notation of the rule book: `shape![10, CHANNEL: 3, H, W]`.
///
/// `10` is an unnamed axis of size 10, `?` an unnamed axis whose size is known at run time,
/// `H: 256` an axis named `H` of size 256 and `H` an axis named `H` whose size is known at run
/// time; names are declared with `names!`. A size may be a constant, `H: E` (a path) or
/// `H: {2 * E}` (a const expression), and an unnamed one `{E}`: its value must lie in the
/// crate's size table (every size up to 2048, multiples of 64 and of 1000 up to 65,536,
/// powers of two and ten, common vocabulary sizes); a literal may be any size. `shape![]` is the scalar shape. A repeated name, a
/// negative or fractional size, or a stray token is a compile error pointing at it.
#[proc_macro]
pub fn shape(input: TokenStream) -> TokenStream {
    let spec = match syn::parse::<ShapeSpec>(input) {
        Ok(spec) => spec,
        Err(e) => return e.to_compile_error().into(),
    };
    let axes: Vec<&AxisSpec> = spec.0.iter().collect();
    if axes.len() > MAX_TYPE_RANK {
        return syn::Error::new(
            Span::call_site(),
            format!(
                "rank {} is above the type level's limit of {MAX_TYPE_RANK}; use a run-time \
                 shape (`DynShape`) for higher ranks",
                axes.len()
            ),
        )
        .to_compile_error()
        .into();
    }
    let mut seen: Vec<&Ident> = Vec::new();
    let mut types = Vec::new();
    for axis in axes {
        match axis {
            AxisSpec::Size(size) => types.push(size_type(size)),
            AxisSpec::Named(name, size) => {
                if seen.contains(&name) {
                    let message =
                        format!("repeated name `{name}`: a name may occur at most once in a shape");
                    return syn::Error::new(name.span(), message)
                        .to_compile_error()
                        .into();
                }
                seen.push(name);
                let size = size_type(size);
                types.push(quote!(#name<#size>));
            }
        }
    }
    let out = if types.len() == 1 {
        let t = &types[0];
        quote!((#t,))
    } else {
        quote!((#(#types),*))
    };
    out.into()
}

/// One declared name, with its visibility.
struct NameDecl {
    vis: Visibility,
    name: Ident,
}

impl Parse for NameDecl {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let vis: Visibility = input.parse()?;
        let name: Ident = input.parse()?;
        Ok(NameDecl { vis, name })
    }
}

struct NamesSpec(Punctuated<NameDecl, Token![,]>);

impl Parse for NamesSpec {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        Ok(NamesSpec(Punctuated::parse_terminated(input)?))
    }
}

/// FNV-1a, 64 bits: the name's identity at the type level (names compare as strings).
fn fnv1a(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Declares axis names: `names!(H, W, pub(crate) CHANNEL);`.
///
/// Each name becomes a zero-sized type `H<Size = Dyn>` usable in `shape!`; a name without a
/// visibility is `pub`. Names compare as strings: `H` declared in two modules or crates is the
/// same axis name.
#[proc_macro]
pub fn names(input: TokenStream) -> TokenStream {
    let spec = match syn::parse::<NamesSpec>(input) {
        Ok(spec) => spec,
        Err(e) => return e.to_compile_error().into(),
    };
    let mut out = TokenStream2::new();
    for decl in spec.0 {
        let NameDecl { vis, name } = decl;
        let vis = match vis {
            Visibility::Inherited => quote!(pub),
            v => quote!(#v),
        };
        let text = name.to_string();
        let text = text.strip_prefix("r#").unwrap_or(&text).to_string();
        let hash = fnv1a(&text);
        // The hash as 16 hex digits, least significant first: `Id<X3, X10, ...>` (see
        // `typed::name`).
        let digits = (0..16).map(|i| {
            let digit = format_ident!("X{}", (hash >> (4 * i)) & 0xf);
            quote!(::shapecast::__private::#digit)
        });
        let id = quote!(::shapecast::__private::Id<#(#digits),*>);
        let doc = format!("The axis name `{text}`: `{text}` alone has a size known at run time, `{text}<S<N>>` has size N.");
        let marker = format_ident!("{}", name);
        out.extend(quote! {
            #[doc = #doc]
            #[allow(non_camel_case_types)]
            #vis struct #marker<__ShapecastSize = ::shapecast::Dyn>(
                ::core::marker::PhantomData<__ShapecastSize>,
            );

            impl<__ShapecastSize: ::shapecast::AxisSize> ::shapecast::Axis for #marker<__ShapecastSize> {
                type Size = __ShapecastSize;
                type Name = ::shapecast::__private::Named<#marker>;
                type Resize<__ShapecastNew> = #marker<__ShapecastNew>;
                const NAME: ::core::option::Option<&'static str> = ::core::option::Option::Some(#text);
            }

            impl<__ShapecastSize> ::shapecast::__private::Sealed for #marker<__ShapecastSize> {}

            impl ::shapecast::__private::NameId for #marker {
                type Bits = #id;
            }
        });
    }
    out.into()
}

/// Whether a field carries `#[parameters(skip)]`; any other argument is an error.
fn skipped(field: &syn::Field) -> syn::Result<bool> {
    let mut skip = false;
    for attr in field
        .attrs
        .iter()
        .filter(|a| a.path().is_ident("parameters"))
    {
        attr.parse_nested_meta(|meta| {
            if meta.path.is_ident("skip") {
                skip = true;
                Ok(())
            } else {
                Err(meta.error("expected `#[parameters(skip)]`"))
            }
        })?;
    }
    Ok(skip)
}

/// The impl `#[derive(Parameters)]` writes: each field not skipped visited in declaration
/// order, the impl existing for the element types every field's type has parameters of.
fn parameters_impl(input: &syn::DeriveInput) -> syn::Result<TokenStream2> {
    let syn::Data::Struct(data) = &input.data else {
        return Err(syn::Error::new_spanned(
            &input.ident,
            "`Parameters` is derived for structs: write `visit` by hand for an enum or a union",
        ));
    };
    let (mut visits, mut bounds) = (Vec::new(), Vec::new());
    for (i, field) in data.fields.iter().enumerate() {
        if skipped(field)? {
            continue;
        }
        let member = match &field.ident {
            Some(id) => quote!(#id),
            None => {
                let index = syn::Index::from(i);
                quote!(#index)
            }
        };
        let ty = &field.ty;
        let span = syn::spanned::Spanned::span(ty);
        visits.push(quote_spanned!(span=>
            ::shapecast::train::Parameters::<__T>::visit(&mut self.#member, f);
        ));
        bounds.push(quote_spanned!(span=> #ty: ::shapecast::train::Parameters<__T>));
    }
    let name = &input.ident;
    let (_, ty_generics, where_clause) = input.generics.split_for_impl();
    let mut generics = input.generics.clone();
    generics.params.push(syn::parse_quote!(__T));
    let (impl_generics, _, _) = generics.split_for_impl();
    let own = where_clause.map(|w| {
        let p = w.predicates.iter();
        quote!(#(#p,)*)
    });
    Ok(quote! {
        impl #impl_generics ::shapecast::train::Parameters<__T> for #name #ty_generics
        where
            #own
            #(#bounds,)*
        {
            fn visit(
                &mut self,
                f: &mut dyn FnMut(&mut dyn ::shapecast::train::ParamSlot<__T>),
            ) {
                #(#visits)*
                let _ = f;
            }
        }
    })
}

/// `#[derive(Parameters)]`: a model's `shapecast::train::Parameters` impl, visiting each
/// field in declaration order (a `Param`, a nested model, a tuple, array or `Vec` of them).
/// A field that holds no parameters (a size, a configuration) is marked
/// `#[parameters(skip)]`. The impl exists for the element type of the model's parameters
/// (`f32` for a model of `Param<f32, _>`s; every `T` a generic model is instantiated with).
/// Use it through `shapecast::train::Parameters`, which re-exports it beside the trait.
#[proc_macro_derive(Parameters, attributes(parameters))]
pub fn derive_parameters(input: TokenStream) -> TokenStream {
    let input = syn::parse_macro_input!(input as syn::DeriveInput);
    match parameters_impl(&input) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}
