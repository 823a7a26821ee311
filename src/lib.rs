//! Sundial tools and embedding API.
