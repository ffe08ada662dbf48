//! The function: the signature decides the form; each mistake with its message.

use super::*;

// --- the function ---

#[test]
fn the_signature_decides_the_form() {
    assert_eq!(
        form(quote!(
            fn f(work: u64, rec: &mut Recorder) {}
        )),
        BenchForm::Full
    );
    assert_eq!(
        form(quote!(
            pub fn f(_: u64, _: &mut ::pilot::Recorder) {}
        )),
        BenchForm::Full
    );
    assert_eq!(
        form(quote!(
            fn f(b: &mut Bencher) {}
        )),
        BenchForm::Micro
    );
    assert_eq!(
        form(quote!(
            fn f(b: &'_ mut pilot::Bencher) -> () {}
        )),
        BenchForm::Micro
    );
    assert_eq!(
        form(quote!(
            fn f(work: core::primitive::u64) {}
        )),
        BenchForm::ReadingsOnly
    );
    assert_eq!(
        form(quote!(
            const fn f(_w: u64) {}
        )),
        BenchForm::ReadingsOnly
    );
}

#[test]
fn the_default_name_drops_raw_prefixes() {
    let function = parse_fn(quote!(
        fn r#match(b: &mut Bencher) {}
    ))
    .unwrap();
    assert_eq!(function.default_name(), "match");
}

#[test]
fn wrong_signatures() {
    for item in [
        quote!(
            fn f() {}
        ),
        quote!(
            fn f(work: u32) {}
        ),
        quote!(
            fn f(b: &Bencher) {}
        ),
        quote!(
            fn f(b: Bencher) {}
        ),
        quote!(
            fn f(rec: &mut Recorder, work: u64) {}
        ),
        quote!(
            fn f(work: u64, rec: &mut Recorder, extra: u64) {}
        ),
        quote!(
            fn f(b: &mut Bencher<u8>) {}
        ),
    ] {
        assert_eq!(fn_error(item), EXPECTED_SIGNATURE);
    }
}

#[test]
fn wrong_return_type() {
    assert_eq!(
        fn_error(quote!(
            fn f(b: &mut Bencher) -> u64 {
                0
            }
        )),
        "a bench returns nothing: expected no return type or `()`; pass a result to \
         `pilot::black_box` to keep it from being optimised away"
    );
}

#[test]
fn qualifiers() {
    assert!(
        fn_error(quote!(
            async fn f(b: &mut Bencher) {}
        ))
        .contains("cannot be `async`")
    );
    assert!(
        fn_error(quote!(
            unsafe fn f(b: &mut Bencher) {}
        ))
        .contains("cannot be `unsafe fn`")
    );
    assert!(
        fn_error(quote!(
            extern "C" fn f(work: u64) {}
        ))
        .contains("cannot have an `extern`")
    );
}

#[test]
fn generics() {
    assert!(
        fn_error(quote!(
            fn f<T>(b: &mut Bencher) {}
        ))
        .contains("cannot have generic")
    );
    assert!(
        fn_error(quote!(
            fn f<'a>(b: &'a mut Bencher) {}
        ))
        .contains("cannot have generic")
    );
    assert!(
        fn_error(quote!(
            fn f(b: &mut Bencher)
            where
                u8: Copy,
            {
            }
        ))
        .contains("`where` clause")
    );
}

#[test]
fn receivers_and_variadics() {
    assert!(
        fn_error(quote!(
            fn f(&self, b: &mut Bencher) {}
        ))
        .contains("cannot take `self`")
    );
    assert!(
        fn_error(quote!(
            fn f(self) {}
        ))
        .contains("cannot take `self`")
    );
    assert!(
        fn_error(quote!(
            fn f(work: u64, ...) {}
        ))
        .contains("variadic")
    );
}

#[test]
fn not_a_function() {
    for item in [
        quote!(
            struct S;
        ),
        quote!(impl S {}),
        quote!(
            mod m {}
        ),
        quote!(
            const C: u8 = 0;
        ),
    ] {
        assert_eq!(fn_error(item), "`#[pilot::bench]` goes on a function");
    }
}

#[test]
fn several_mistakes_give_one_message_each() {
    // async, unsafe, generics, return type and parameters: five mistakes.
    let errors = fn_errors(quote!(
        async unsafe fn f<T>(x: T) -> T {
            x
        }
    ));
    assert_eq!(errors.len(), 5, "{errors:?}");
}

fn parsed_with_args(item: TokenStream) -> syn::Result<BenchFn> {
    parse_fn_for(item, true)
}

#[test]
fn an_argument_comes_first_with_args() {
    for (item, form) in [
        (
            quote!(
                fn f(n: usize, b: &mut Bencher) {}
            ),
            BenchForm::Micro,
        ),
        (
            quote!(
                fn f(n: u64, work: u64, rec: &mut Recorder) {}
            ),
            BenchForm::Full,
        ),
        (
            quote!(
                fn f(n: &'static str, work: u64) {}
            ),
            BenchForm::ReadingsOnly,
        ),
    ] {
        let function = parsed_with_args(item).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(function.form, form);
        assert!(function.arg.is_some());
    }
    let arg = parsed_with_args(quote!(
        fn f(n: Vec<u8>, b: &mut Bencher) {}
    ))
    .unwrap()
    .arg
    .unwrap();
    assert_eq!(quote!(#arg).to_string(), quote!(Vec<u8>).to_string());
}

#[test]
fn args_and_the_argument_parameter_go_together() {
    let no_param = parsed_with_args(quote!(
        fn f(b: &mut Bencher) {}
    ))
    .err()
    .unwrap()
    .to_string();
    assert!(no_param.starts_with("`args` gives argument values, but the function takes no"));
    let no_args = fn_error(quote!(
        fn f(n: usize, b: &mut Bencher) {}
    ));
    assert!(no_args.starts_with("the first parameter is an argument, but no `args"));
    let wrong = parsed_with_args(quote!(
        fn f(n: usize, m: usize) {}
    ))
    .err()
    .unwrap()
    .to_string();
    assert_eq!(wrong, EXPECTED_SIGNATURE_WITH_ARG);
}

#[test]
fn the_signature_is_read_after_args_even_with_other_mistakes() {
    let errors: Vec<String> = parse(
        quote!(args = [1, 2], bogus),
        quote!(
            fn f(n: usize, b: &mut Bencher) {}
        ),
    )
    .err()
    .unwrap()
    .into_iter()
    .map(|e| e.to_string())
    .collect();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].starts_with("unknown `#[pilot::bench]` option `bogus`"));
}
