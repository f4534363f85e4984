//! One sea-orm entity per table. Multi-language texts (`names`, `descriptions`) are JSON
//! objects keyed by language code; times are Unix seconds.

pub mod bookmark;
pub mod content;
pub mod content_field;
pub mod content_object_state;
pub mod content_relation;
pub mod content_type;
pub mod content_type_group;
pub mod content_type_group_link;
pub mod content_version;
pub mod event;
pub mod field_definition;
pub mod id_sequence;
pub mod language;
pub mod location;
pub mod object_state;
pub mod object_state_group;
pub mod pending_location;
pub mod policy;
pub mod policy_limitation;
pub mod role;
pub mod role_assignment;
pub mod section;
pub mod trash;
pub mod url_alias;
pub mod url_wildcard;
pub mod user;
pub mod user_session;
