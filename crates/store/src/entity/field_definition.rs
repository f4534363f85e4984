//! `field_definitions`: the fields of a content type (`status` as the type's row: a draft's
//! Field definitions keep the ids of the defined ones they change).

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "field_definitions")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: i64,
        #[sea_orm(primary_key, auto_increment = false)]
        pub status: i64,
        pub content_type_id: i64,
        pub identifier: String,
        /// The field type's bare name (`string` for `ezstring`): the prefix is configuration.
        pub field_type: String,
        pub field_group: String,
        pub position: i64,
        pub is_translatable: bool,
        pub is_required: bool,
        pub is_info_collector: bool,
        pub is_searchable: bool,
        pub is_thumbnail: bool,
        /// JSON object: language code → name.
        pub names: String,
        /// JSON object: language code → description.
        pub descriptions: String,
        /// JSON: the stored default value.
        pub default_value: String,
        /// JSON: the settings, defaults filled in.
        pub field_settings: String,
        /// JSON: the validator configuration, defaults filled in.
        pub validator_configuration: String,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
