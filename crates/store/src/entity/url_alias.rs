//! `url_aliases`: the path elements of URL aliases (the reference's `ezurlalias_ml`), keyed
//! by parent element and the md5 of the lowercased text. See the migration for the model.

use sea_orm::entity::prelude::*;

crate::from_row! {
    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "url_aliases")]
    pub struct Model {
        /// The parent element's id; 0 at the root.
        #[sea_orm(primary_key, auto_increment = false)]
        pub parent: i64,
        /// md5 of the lowercased text.
        #[sea_orm(primary_key, auto_increment = false)]
        pub text_md5: String,
        /// The element's id (shared by its texts in several languages); children hang below it.
        pub id: i64,
        /// Where lookups continue: the element's own id, or for history the current element's.
        pub link: i64,
        /// The text as shown (case kept).
        pub text: String,
        /// `eznode:<location id>`, `module:<resource>` or `nop:`.
        pub action: String,
        /// Language ids (bit flags) the text is valid for.
        pub lang_mask: i64,
        pub always_available: bool,
        /// False for history.
        pub is_original: bool,
        /// A custom (user-created) alias.
        pub is_alias: bool,
        /// A custom alias redirects (forward) instead of being served in place.
        pub alias_redirects: bool,
    }
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
