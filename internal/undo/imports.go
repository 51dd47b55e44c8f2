package undo

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/shoebox-photos/shoebox/internal/importlog"
	"github.com/shoebox-photos/shoebox/internal/journal"
	"github.com/shoebox-photos/shoebox/internal/recovery"
)

// forgetImports removes from the library's import history the files the
// run being undone put in the library, before they are removed: a sort
// after the undo then imports them again instead of calling them
// "imported before". Forgetting first is the safe order: a kill in
// between leaves files the history no longer claims, which the next sort
// recognises by content; the other order would leave the history claiming
// files undo had removed. A history that cannot be updated is a warning.
func (u *undoer) forgetImports(sp *spill) {
	state := filepath.Join(u.dest, ".shoebox")
	// A repair run (check --repair) restored files the history records
	// already, and must leave them recorded once they are undone.
	if u.opt.DryRun || recovery.IsRepair(u.run) || !importlog.Exists(state) {
		return
	}
	if recovery.IsRelayout(u.run) {
		u.moveImportsBack(state, sp)
		return
	}
	l, err := importlog.Open(state, func(msg string) { u.warn(msg) })
	if err != nil {
		u.warn(fmt.Sprintf("could not update the import history (%v): a sort may call this run's files imported before; use --reimport", err))
		return
	}
	defer l.Close()
	errStop := errors.New("stop")
	var walkErr error
	var within [][2]string // library files the run moved within the library: (new, old)
	_, err = l.Forget(func(yield func(string) bool) {
		walkErr = sp.each(func(e journal.Entry) error {
			if !recovery.IsTransfer(e.Action) {
				return nil
			}
			if from, to, ok := u.movedBack(e); ok {
				within = append(within, [2]string{from, to})
				return nil
			}
			rel, err := filepath.Rel(u.dest, e.Dst)
			if err != nil || !filepath.IsLocal(rel) {
				return nil
			}
			if !yield(filepath.ToSlash(rel)) {
				return errStop
			}
			return nil
		})
	})
	if err == nil && walkErr != nil && !errors.Is(walkErr, errStop) {
		err = walkErr
	}
	if err == nil && len(within) > 0 {
		// Their landings followed them (the sort's movedWithinLibrary):
		// they go back with them, as a relayout's do.
		_, err = l.Relocate(importlog.Pairs(within))
	}
	if err != nil {
		u.warn(fmt.Sprintf("could not update the import history (%v): a sort may call this run's files imported before; use --reimport", err))
	}
}

// movedBack returns, for a journaled move from one place in the library
// to another, the places (new, old) its history entry goes between when
// the move is undone.
func (u *undoer) movedBack(e journal.Entry) (from, to string, ok bool) {
	to, from, ok = recovery.MoveWithin(u.dest, e)
	return from, to, ok
}

// warn reports a problem that does not stop the undo.
func (u *undoer) warn(msg string) {
	u.report(Event{Outcome: "warning", Reason: msg}, "warning: %s", msg)
}

// moveImportsBack has the history of a relayout being undone name its
// files' old places again, before they are moved back: a kill in between
// leaves entries naming places the files are not at yet, which the undo
// run again (it resumes the same run) moves them to.
func (u *undoer) moveImportsBack(state string, sp *spill) {
	l, err := importlog.OpenForUpdate(state)
	if err != nil {
		u.warn(fmt.Sprintf("could not update the import history (%v): shoebox check may list the moved-back files as strays", err))
		return
	}
	defer l.Close()
	var walkErr error
	_, err = l.Relocate(func(yield func(string, string) bool) {
		walkErr = sp.each(func(e journal.Entry) error {
			from, to, ok := u.movedBack(e)
			if !ok {
				return nil
			}
			if !yield(from, to) {
				return errors.New("stop")
			}
			return nil
		})
	})
	if err == nil && walkErr != nil && walkErr.Error() != "stop" {
		err = walkErr
	}
	if err != nil {
		u.warn(fmt.Sprintf("could not update the import history (%v): shoebox check may list the moved-back files as strays", err))
	}
}
