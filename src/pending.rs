//! The resource families not implemented yet. Every operation of each answers 501 Not
//! Implemented with an `ErrorMessage`; this file is the one place that says which.

use crate::error::Error;
use crate::service::Service;

crate::api::traits::not_implemented_users!(Service, Error::not_implemented);
crate::api::traits::not_implemented_views!(Service, Error::not_implemented);
