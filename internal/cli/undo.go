package cli

import (
	"context"
	"errors"
)

func cmdUndo(ctx context.Context, env Env, args []string) error {
	return errors.New("undo: not built yet")
}
