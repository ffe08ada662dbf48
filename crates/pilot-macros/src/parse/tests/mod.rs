//! Unit tests of the parser: every form, every option, and each error message; the options in
//! [`attr`], the function in [`signature`].

mod attr;
mod signature;

use super::*;
use quote::quote;

fn attr(args: TokenStream) -> BenchAttr {
    match parse_attr(args) {
        Ok(attr) => attr,
        Err(error) => panic!("unexpected error: {error}"),
    }
}

/// Every message of the error, in order.
fn attr_errors(args: TokenStream) -> Vec<String> {
    match parse_attr(args) {
        Ok(_) => panic!("expected an error"),
        Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
    }
}

fn attr_error(args: TokenStream) -> String {
    let errors = attr_errors(args);
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors.into_iter().next().unwrap()
}

fn form(item: TokenStream) -> BenchForm {
    match parse_fn(item) {
        Ok(function) => function.form,
        Err(error) => panic!("unexpected error: {error}"),
    }
}

fn fn_errors(item: TokenStream) -> Vec<String> {
    match parse_fn(item) {
        Ok(function) => panic!("expected an error, got {:?}", function.form),
        Err(error) => error.into_iter().map(|e| e.to_string()).collect(),
    }
}

fn fn_error(item: TokenStream) -> String {
    let errors = fn_errors(item);
    assert_eq!(errors.len(), 1, "{errors:?}");
    errors.into_iter().next().unwrap()
}
