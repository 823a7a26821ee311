// A module without a function (sundial-run has nothing to run).
module {
}
