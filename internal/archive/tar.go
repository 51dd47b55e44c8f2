package archive

import "io"

func (a *Archive) indexTar() error {
	return ErrNotArchive
}

func (m *Member) openTar() (io.ReadCloser, error) {
	return nil, m.problem(ErrNotArchive)
}
