//! Password hashes: argon2id PHC strings, cairn's own. Accounts brought over by `cairn migrate`
//! keep the hash the old site stored until their first login, which replaces it with cairn's:
//! PHP `password_hash` bcrypt (`$2y$…`) and argon2 (`$argon2i$…`, `$argon2id$…`) strings as
//! they are, and the old md5 types as `md5_password:<hex>` (md5 of the password) and
//! `md5_user:<hex>:<login>` (md5 of `login\npassword`), as the reference's user handler made
//! them.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use md5::{Digest, Md5};

/// Hashes a password with a fresh random salt.
pub fn hash(password: &str) -> String {
    let bytes: [u8; 16] = rand::random();
    let salt = SaltString::encode_b64(&bytes).expect("16 bytes is a valid salt length");
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashing with default parameters cannot fail")
        .to_string()
}

/// Whether `password` matches `hash` (cairn's, or a migrated one of the kinds above); a
/// malformed hash never matches.
pub fn verify(password: &str, hash: &str) -> bool {
    if hash.starts_with("$2") {
        return bcrypt::verify(password, hash).unwrap_or(false);
    }
    if let Some(hex) = hash.strip_prefix("md5_password:") {
        return md5_hex(password) == hex.to_ascii_lowercase();
    }
    if let Some(rest) = hash.strip_prefix("md5_user:") {
        let Some((hex, login)) = rest.split_once(':') else {
            return false;
        };
        return md5_hex(&format!("{login}\n{password}")) == hex.to_ascii_lowercase();
    }
    PasswordHash::new(hash)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}

/// Whether `hash` is cairn's own kind (else a login that verifies it stores cairn's).
pub fn is_current(hash: &str) -> bool {
    hash.starts_with("$argon2id$")
}

/// Whether [`verify`] can check `hash` at all: the kinds above.
pub fn is_verifiable(hash: &str) -> bool {
    hash.starts_with("$2")
        || hash.starts_with("md5_password:")
        || hash.starts_with("md5_user:")
        || PasswordHash::new(hash).is_ok()
}

fn md5_hex(text: &str) -> String {
    Md5::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference's clean-install admin hash (PHP `password_hash('publish', PASSWORD_BCRYPT)`).
    const ADMIN: &str = "$2y$10$FDn9NPwzhq85cLLxfD5Wu.L3SL3Z/LNCvhkltJUV0wcJj7ciJg2oy";

    #[test]
    fn migrated_hashes_verify_as_the_reference_made_them() {
        assert!(verify("publish", ADMIN));
        assert!(!verify("publish!", ADMIN));
        let md5 = format!("md5_password:{}", md5_hex("secret"));
        assert!(verify("secret", &md5) && !verify("Secret", &md5));
        let user = format!("md5_user:{}:jane", md5_hex("jane\nsecret"));
        assert!(verify("secret", &user) && !verify("secret", "md5_user:nonsense"));
        let own = hash("secret");
        assert!(is_current(&own) && verify("secret", &own));
        assert!(!is_current(ADMIN) && is_verifiable(ADMIN) && !is_verifiable("plain"));
    }
}
