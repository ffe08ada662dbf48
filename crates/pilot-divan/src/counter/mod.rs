//! Counters: what one iteration of a bench processes (divan's `divan::counter`), shown under
//! pilot as the bench's throughput.
//!
//! A bench has at most one throughput under pilot: of the counters a bench sets, the bytes are
//! shown, else the chars, else the items, else the cycles. Bytes are shown with binary prefixes
//! (`MiB/s`) whatever [`BytesFormat`] says.

mod set;

#[doc(hidden)]
pub use set::CounterSet;
pub(crate) use set::Kind;

/// A counter: [`BytesCount`], [`CharsCount`], [`CyclesCount`] or [`ItemsCount`].
pub trait Counter: Sized + std::any::Any + sealed::Sealed {}

/// A value that becomes a [`Counter`]: a counter, or an unsigned integer (items).
pub trait IntoCounter {
    /// The counter it becomes.
    type Counter: Counter;
    /// The counter.
    fn into_counter(self) -> Self::Counter;
}

impl<C: Counter> IntoCounter for C {
    type Counter = C;
    fn into_counter(self) -> C {
        self
    }
}

pub(crate) mod sealed {
    /// What kind of count a counter is, and how many: read by pilot-divan only.
    pub trait Sealed {
        fn kind_count(&self) -> (super::Kind, u64);
        const KIND: super::Kind;
    }
}

/// An unsigned integer a counter counts with (`u8` to `u64`, `usize`).
pub trait CountUInt: Copy + std::any::Any {
    /// The count.
    #[doc(hidden)]
    fn into_count(self) -> u64;
}

/// A value a counter is made from by [`From`], and that `Bencher::count_inputs_as` counts:
/// an unsigned integer, or a reference to one.
pub trait AsCountUInt {
    /// The count.
    #[doc(hidden)]
    fn as_count(&self) -> u64;
}

impl<T: AsCountUInt> AsCountUInt for &T {
    fn as_count(&self) -> u64 {
        T::as_count(self)
    }
}

macro_rules! uints {
    ($($t:ty),*) => {$(
        impl CountUInt for $t {
            fn into_count(self) -> u64 {
                self as u64
            }
        }
        impl AsCountUInt for $t {
            fn as_count(&self) -> u64 {
                *self as u64
            }
        }
        impl IntoCounter for $t {
            type Counter = ItemsCount;
            fn into_counter(self) -> ItemsCount {
                ItemsCount::new(self)
            }
        }
    )*};
}

uints!(u8, u16, u32, u64, usize);

macro_rules! counters {
    ($($(#[$doc:meta])* $name:ident => $kind:ident,)*) => {$(
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub struct $name {
            count: u64,
        }

        impl $name {
            /// Counts `count`.
            pub fn new<N: CountUInt>(count: N) -> Self {
                $name { count: count.into_count() }
            }
        }

        impl<C: AsCountUInt> From<C> for $name {
            fn from(count: C) -> Self {
                $name { count: count.as_count() }
            }
        }

        impl sealed::Sealed for $name {
            fn kind_count(&self) -> (Kind, u64) {
                (Kind::$kind, self.count)
            }
            const KIND: Kind = Kind::$kind;
        }

        impl Counter for $name {}
    )*};
}

counters! {
    /// Bytes processed per iteration: throughput in `B/s` (`KiB/s`, `MiB/s`, …).
    BytesCount => Bytes,
    /// `char`s processed per iteration: throughput in `char/s`.
    CharsCount => Chars,
    /// Cycles per iteration (divan shows them in Hz): throughput in `cycle/s`.
    CyclesCount => Cycles,
    /// Items processed per iteration: throughput in `item/s`.
    ItemsCount => Items,
}

impl BytesCount {
    /// The size of a `T`.
    pub const fn of<T>() -> Self {
        BytesCount {
            count: size_of::<T>() as u64,
        }
    }

    /// The size of `n` values of `T`.
    ///
    /// # Panics
    ///
    /// When the size overflows a `u64`.
    pub const fn of_many<T>(n: usize) -> Self {
        match (size_of::<T>() as u64).checked_mul(n as u64) {
            Some(count) => BytesCount { count },
            None => panic!("overflow"),
        }
    }

    /// The size of `val` ([`size_of_val`]).
    pub fn of_val<T: ?Sized>(val: &T) -> Self {
        BytesCount {
            count: size_of_val(val) as u64,
        }
    }

    /// The bytes of the items of `iter`.
    pub fn of_iter<T, I: IntoIterator<Item = T>>(iter: I) -> Self {
        Self::of_many::<T>(iter.into_iter().count())
    }

    /// The bytes of a string.
    pub fn of_str<S: ?Sized + AsRef<str>>(s: &S) -> Self {
        Self::of_val(s.as_ref())
    }

    /// The bytes of a slice.
    pub fn of_slice<T, S: ?Sized + AsRef<[T]>>(s: &S) -> Self {
        Self::of_val(s.as_ref())
    }
}

macro_rules! type_bytes {
    ($($t:ident),*) => {
        /// The bytes of `n` values of a primitive type.
        impl BytesCount {$(
            #[doc = concat!("The bytes of `n` `", stringify!($t), "`s.")]
            pub const fn $t(n: usize) -> Self {
                Self::of_many::<$t>(n)
            }
        )*}
    };
}

type_bytes!(
    f32, f64, i8, u8, i16, u16, i32, u32, i64, u64, i128, u128, isize, usize
);

impl CharsCount {
    /// The `char`s of a string.
    pub fn of_str<S: ?Sized + AsRef<str>>(s: &S) -> Self {
        Self::new(s.as_ref().chars().count())
    }
}

impl ItemsCount {
    /// The items of `iter`.
    pub fn of_iter<T, I: IntoIterator<Item = T>>(iter: I) -> Self {
        Self::new(iter.into_iter().count())
    }
}

/// How divan shows bytes: with decimal (`KB`) or binary (`KiB`) prefixes. Accepted; pilot
/// shows bytes with binary prefixes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
#[non_exhaustive]
pub enum BytesFormat {
    /// Powers of 1000 (divan's default).
    #[default]
    Decimal,
    /// Powers of 1024.
    Binary,
}

#[cfg(test)]
mod tests {
    use super::*;
    use sealed::Sealed;

    #[test]
    fn counts() {
        assert_eq!(BytesCount::of_str("héllo").kind_count(), (Kind::Bytes, 6));
        assert_eq!(CharsCount::of_str("héllo").kind_count(), (Kind::Chars, 5));
        assert_eq!(BytesCount::u32(3).kind_count(), (Kind::Bytes, 12));
        assert_eq!(BytesCount::of_slice(&[1u16, 2, 3]).kind_count().1, 6);
        assert_eq!(
            BytesCount::of_iter::<i32, _>([1, 2, 3]),
            BytesCount::of_slice(&[1, 2, 3])
        );
        assert_eq!(ItemsCount::from(&&7u8).kind_count(), (Kind::Items, 7));
        assert_eq!(7usize.into_counter(), ItemsCount::new(7u32));
    }
}
