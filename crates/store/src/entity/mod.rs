//! One sea-orm entity per table. Multi-language texts (`names`, `descriptions`) are JSON
//! objects keyed by language code; times are Unix seconds.

pub mod language;
pub mod object_state;
pub mod object_state_group;
pub mod section;
pub mod user;
pub mod user_session;
