//! `args = …`: a bench's argument values, made once at run time, and their names.

use std::any::Any;
use std::borrow::Cow;
use std::fmt::Debug;
use std::sync::OnceLock;

use crate::Bencher;

/// The argument values of one bench, made when first asked for (shared by the instances of a
/// generic bench).
pub struct Args {
    values: OnceLock<(&'static (dyn Any + Send + Sync), Vec<String>)>,
}

/// One instance's way of running a bench with the argument value at an index.
#[derive(Clone, Copy)]
pub struct ArgsRunner {
    /// The values' names, in order.
    pub names: &'static [String],
    /// Runs the bench with the value at the index.
    pub call: &'static (dyn Fn(Bencher, usize) + Send + Sync),
}

impl Default for Args {
    fn default() -> Self {
        Args::new()
    }
}

impl Args {
    /// No values yet.
    pub const fn new() -> Self {
        Args {
            values: OnceLock::new(),
        }
    }

    /// The runner of `bench` over the values `make` gives (made once, kept for the process's
    /// life), each named by `name`.
    pub fn runner<I, B>(
        &'static self,
        make: impl FnOnce() -> I,
        name: impl Fn(&I::Item) -> String,
        bench: B,
    ) -> ArgsRunner
    where
        I: IntoIterator,
        I::Item: Any + Send + Sync,
        B: Fn(Bencher, &'static I::Item) + Copy + Send + Sync + 'static,
    {
        let (values, names) = self.values.get_or_init(|| {
            let values: &'static Vec<I::Item> = Box::leak(Box::new(make().into_iter().collect()));
            let names = values.iter().map(name).collect();
            (values, names)
        });
        let values: &'static Vec<I::Item> = values
            .downcast_ref()
            .expect("every instance of a bench takes the same argument type");
        ArgsRunner {
            names,
            call: Box::leak(Box::new(move |b: Bencher, i: usize| bench(b, &values[i]))),
        }
    }
}

/// An argument value as the bench function takes it: by value (copied), by reference, or a
/// string as `&str`.
pub trait Arg<T> {
    /// The value.
    fn get(this: Self) -> T;
}

impl<T> Arg<T> for T {
    fn get(this: Self) -> T {
        this
    }
}

impl<'a, T: ?Sized + ToOwned> Arg<&'a T> for &'a Cow<'a, T> {
    fn get(this: Self) -> &'a T {
        this
    }
}

impl<'a> Arg<&'a str> for &'a String {
    fn get(this: Self) -> &'a str {
        this
    }
}

impl<T: Copy> Arg<T> for &T {
    fn get(this: Self) -> T {
        *this
    }
}

impl<T: Copy> Arg<T> for &&T {
    fn get(this: Self) -> T {
        **this
    }
}

impl<T: Copy> Arg<T> for &&&T {
    fn get(this: Self) -> T {
        ***this
    }
}

/// An argument value's name: its `Display` form when it has one (the inherent method, which
/// method resolution prefers), else its `Debug` form (the trait's).
pub struct ToStringHelper<'a, T: 'static>(pub &'a T);

#[allow(clippy::to_string_trait_impl)]
impl<T: Debug> ToString for ToStringHelper<'_, T> {
    fn to_string(&self) -> String {
        format!("{:?}", self.0)
    }
}

impl<T: ToString> ToStringHelper<'_, T> {
    /// The `Display` form.
    #[allow(clippy::inherent_to_string)]
    pub fn to_string(&self) -> String {
        self.0.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    enum Shape {
        Wide,
    }

    #[test]
    fn names_prefer_display() {
        assert_eq!(ToStringHelper(&12u32).to_string(), "12");
        assert_eq!(ToStringHelper(&"abc").to_string(), "abc");
        assert_eq!(ToStringHelper(&Shape::Wide).to_string(), "Wide");
    }

    #[test]
    fn values_as_the_function_takes_them() {
        let three = &3usize;
        let n: usize = Arg::get(three);
        assert_eq!(n, 3);
        let owned = String::from("x");
        let s: &str = Arg::get(&owned);
        assert_eq!(s, "x");
    }
}
