//! Password hashes: argon2id PHC strings.

use argon2::Argon2;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};

/// Hashes a password with a fresh random salt.
pub fn hash(password: &str) -> String {
    let bytes: [u8; 16] = rand::random();
    let salt = SaltString::encode_b64(&bytes).expect("16 bytes is a valid salt length");
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .expect("argon2 hashing with default parameters cannot fail")
        .to_string()
}

/// Whether `password` matches `hash`; a malformed hash never matches.
pub fn verify(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|h| {
            Argon2::default()
                .verify_password(password.as_bytes(), &h)
                .is_ok()
        })
        .unwrap_or(false)
}
