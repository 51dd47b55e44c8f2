// Package wine tells a test whether it runs under Wine rather than on
// Windows itself, for the few tests that meet a Wine limitation (not a
// Windows behaviour) and skip there saying so; docs/platforms.md lists
// each. Shipped code never asks: shoebox behaves the same under both.
package wine
