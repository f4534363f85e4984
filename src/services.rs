//! Declaring a family's service: the shared state it is handed, and any state of its own.

/// Declares a family's service type: the shared state it is handed, read through `Deref`
/// (`self.db`, `self.authorize(..)`), and any state of its own.
macro_rules! family_service {
    ($(#[$doc:meta])* $name:ident $({ $($field:ident: $ty:ty = $init:expr),* $(,)? })?) => {
        $(#[$doc])*
        pub struct $name {
            shared: std::sync::Arc<crate::shared::Shared>,
            $($($field: $ty,)*)?
        }

        impl $name {
            pub fn new(shared: std::sync::Arc<crate::shared::Shared>) -> $name {
                $name { shared, $($($field: $init,)*)? }
            }
        }

        impl std::ops::Deref for $name {
            type Target = crate::shared::Shared;

            fn deref(&self) -> &crate::shared::Shared {
                &self.shared
            }
        }
    };
}
pub(crate) use family_service;
