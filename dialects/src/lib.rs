//! NISA and BIR dialects.
