//! `ezuser`: a user account, stored as `{hasStoredLogin, contentId, login, email,
//! passwordHash, passwordHashType, passwordUpdatedAt, enabled, maxLogin, plainPassword}`;
//! `null` when empty. Output drops the password hash and never shows the plain password.
//! Settings `PasswordTTL`, `PasswordTTLWarning`, `RequireUniqueEmail`, `UsernamePattern`;
//! validator `PasswordValueValidator`.
//!
//! The user service must hash `plainPassword` (and clear it) before a value is stored, and
//! check that login and email are not used by another user: both need the repository.

use super::pattern;
use super::*;

pub(crate) struct UserType;

const SETTINGS: &[Param] = &[
    param("PasswordTTL", Kind::OptInt, Dflt::Null),
    param("PasswordTTLWarning", Kind::OptInt, Dflt::Null),
    param("RequireUniqueEmail", Kind::Bool, Dflt::Bool(true)),
    param("UsernamePattern", Kind::Str, Dflt::Str("^[^@]+$")),
];

const VALIDATORS: &[ValidatorSchema] = &[(
    "PasswordValueValidator",
    &[
        param(
            "requireAtLeastOneUpperCaseCharacter",
            Kind::Flag,
            Dflt::Int(1),
        ),
        param(
            "requireAtLeastOneLowerCaseCharacter",
            Kind::Flag,
            Dflt::Int(1),
        ),
        param(
            "requireAtLeastOneNumericCharacter",
            Kind::Flag,
            Dflt::Int(1),
        ),
        param(
            "requireAtLeastOneNonAlphanumericCharacter",
            Kind::Flag,
            Dflt::Null,
        ),
        param("requireNewPassword", Kind::Flag, Dflt::Null),
        param(
            "requireNotCompromisedPassword",
            Kind::Bool,
            Dflt::Bool(false),
        ),
        param("minLength", Kind::Int, Dflt::Int(10)),
    ],
)];

fn text(value: &HashValue, key: &str) -> Option<String> {
    opt_text(field(value, key)).filter(|s| !s.is_empty())
}

fn truthy(v: &HashValue) -> bool {
    match v {
        HashValue::Bool(b) => *b,
        HashValue::Int(i) => *i != 0,
        HashValue::String(s) => !s.is_empty() && s != "0",
        _ => false,
    }
}

/// The reference's `UserPasswordValidator` rules (the "not compromised" check, which asks
/// haveibeenpwned.com, is not done).
fn password_errors(password: &str, rules: &HashValue) -> Vec<ValueError> {
    let mut errors = Vec::new();
    let mut fail = |m: String| errors.push(ValueError::new("password", m));
    let min = field(rules, "minLength").as_i64().unwrap_or(0);
    if min > 0 && (password.chars().count() as i64) < min {
        fail(format!(
            "User password must be at least {min} characters long"
        ));
    }
    let rule = |k| truthy(field(rules, k));
    if rule("requireAtLeastOneLowerCaseCharacter") && !password.chars().any(char::is_lowercase) {
        fail("User password must include at least one lower case letter".to_string());
    }
    if rule("requireAtLeastOneUpperCaseCharacter") && !password.chars().any(char::is_uppercase) {
        fail("User password must include at least one upper case letter".to_string());
    }
    if rule("requireAtLeastOneNumericCharacter") && !password.chars().any(char::is_numeric) {
        fail("User password must include at least one number".to_string());
    }
    if rule("requireAtLeastOneNonAlphanumericCharacter")
        && !password
            .chars()
            .any(|c| !c.is_alphabetic() && !c.is_numeric())
    {
        fail("User password must include at least one special character".to_string());
    }
    errors
}

impl FieldType for UserType {
    fn schema(&self) -> Schema {
        Schema::named("user")
            .settings(SETTINGS)
            .validators(VALIDATORS)
    }

    fn is_singular(&self) -> bool {
        true
    }

    fn only_without_content(&self) -> bool {
        true
    }

    fn settings(&self, input: &HashValue) -> Result<HashValue, String> {
        let out = check_settings(input, SETTINGS)?;
        let ttl = field(&out, "PasswordTTL").as_i64().unwrap_or(0);
        if let Some(warning) = field(&out, "PasswordTTLWarning").as_i64()
            && warning > 0
            && warning >= ttl
        {
            return Err(
                "Password expiration warning value should be lower then password expiration value"
                    .to_string(),
            );
        }
        Ok(out)
    }

    /// The account hash; `password` is read as `passwordHash` (the reference's BC rename).
    fn from_hash(&self, input: &HashValue, _: &ValueContext<'_>) -> Result<HashValue, ValueError> {
        match input {
            HashValue::Null => return Ok(HashValue::Null),
            HashValue::Map(_) => {}
            _ => return Err(ValueError::new("user", "Value must be a hash")),
        }
        let opt = |v: Option<String>| v.map_or(HashValue::Null, HashValue::String);
        let int = |k: &str| {
            field(input, k)
                .as_i64()
                .map_or(HashValue::Null, HashValue::Int)
        };
        let flag = |k: &str| match field(input, k) {
            HashValue::Null => HashValue::Null,
            v => v.as_bool().map_or_else(|| v.clone(), HashValue::Bool),
        };
        let hash = text(input, "password").or_else(|| text(input, "passwordHash"));
        let value = map([
            (
                "hasStoredLogin",
                HashValue::Bool(field(input, "hasStoredLogin").as_bool().unwrap_or(false)),
            ),
            (
                "contentId",
                id_of(field(input, "contentId")).map_or(HashValue::Null, HashValue::Int),
            ),
            ("login", opt(text(input, "login"))),
            ("email", opt(text(input, "email"))),
            ("passwordHash", opt(hash)),
            ("passwordHashType", int("passwordHashType")),
            ("passwordUpdatedAt", int("passwordUpdatedAt")),
            ("enabled", flag("enabled")),
            ("maxLogin", int("maxLogin")),
            ("plainPassword", opt(text(input, "plainPassword"))),
        ]);
        let HashValue::Map(entries) = &value else {
            return Ok(HashValue::Null);
        };
        let all_unset = entries
            .iter()
            .all(|(k, v)| v.is_null() || (k == "hasStoredLogin" && *v == HashValue::Bool(false)));
        Ok(if all_unset { HashValue::Null } else { value })
    }

    fn to_hash(&self, value: &HashValue, _: &ValueContext<'_>) -> HashValue {
        if value.is_null() {
            return HashValue::Null;
        }
        let get = |k: &str| field(value, k).clone();
        map([
            ("hasStoredLogin", get("hasStoredLogin")),
            ("contentId", get("contentId")),
            ("login", get("login")),
            ("email", get("email")),
            ("passwordUpdatedAt", get("passwordUpdatedAt")),
            ("enabled", get("enabled")),
            ("maxLogin", get("maxLogin")),
            ("plainPassword", HashValue::Null),
        ])
    }

    fn validate(&self, value: &HashValue, def: &Definition<'_>) -> Vec<ValueError> {
        let mut errors = Vec::new();
        let stored_login = field(value, "hasStoredLogin").as_bool().unwrap_or(false);
        let login = text(value, "login");
        if login.is_none() {
            errors.push(ValueError::new("username", "Login required"));
        }
        let pattern_text = field(def.settings, "UsernamePattern")
            .as_str()
            .unwrap_or("^[^@]+$");
        if !stored_login
            && pattern::is_match(pattern_text, login.as_deref().unwrap_or("")) == Some(false)
        {
            errors.push(ValueError::new("username", "Invalid login format"));
        }
        match text(value, "email") {
            None => errors.push(ValueError::new("email", "Email required")),
            Some(e) if !is_email(&e) => {
                errors.push(ValueError::new(
                    "email",
                    format!("The given e-mail '{e}' is invalid"),
                ));
            }
            Some(_) => {}
        }
        let plain = text(value, "plainPassword");
        if !stored_login && plain.is_none() {
            errors.push(ValueError::new("password", "Password required"));
        }
        if !matches!(field(value, "enabled"), HashValue::Bool(_)) {
            errors.push(ValueError::new("enabled", "Enabled must be boolean value"));
        }
        if let Some(p) = plain {
            errors.extend(password_errors(
                &p,
                field(def.validators, "PasswordValueValidator"),
            ));
        }
        errors
    }

    /// The login.
    fn name_text(&self, value: &HashValue) -> String {
        text(value, "login").unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::field_types::tests::{cx, def};

    #[test]
    fn accounts() {
        let t = UserType;
        let settings = t.settings(&HashValue::Null).unwrap();
        let validators = t.validators(&HashValue::Null).unwrap();
        let d = def(&settings, &validators);
        let v = t
            .from_hash(
                &map([
                    ("login", "jo@x".into()),
                    ("email", "bad".into()),
                    ("plainPassword", "short".into()),
                    ("enabled", true.into()),
                ]),
                &cx(),
            )
            .unwrap();
        let msgs: Vec<String> = t.validate(&v, &d).into_iter().map(|e| e.message).collect();
        assert_eq!(
            msgs,
            [
                "Invalid login format",
                "The given e-mail 'bad' is invalid",
                "User password must be at least 10 characters long",
                "User password must include at least one upper case letter",
                "User password must include at least one number",
            ]
        );
        let ok = t
            .from_hash(
                &map([
                    ("login", "jo".into()),
                    ("email", "jo@ex.com".into()),
                    ("password", "hash".into()),
                    ("plainPassword", "Secret-12345".into()),
                    ("enabled", "true".into()),
                ]),
                &cx(),
            )
            .unwrap();
        assert!(t.validate(&ok, &d).is_empty());
        assert_eq!(field(&ok, "passwordHash"), &HashValue::from("hash"));
        let out = t.to_hash(&ok, &cx());
        assert!(out.get("passwordHash").is_none());
        assert_eq!(field(&out, "plainPassword"), &HashValue::Null);
        assert!(
            t.settings(&map([
                ("PasswordTTL", 10.into()),
                ("PasswordTTLWarning", 10.into())
            ]))
            .is_err()
        );
        assert!(t.is_singular() && t.only_without_content());
    }
}
