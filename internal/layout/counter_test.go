package layout

import "testing"

func TestCounterOfReadsBackWhatExpandWrote(t *testing.T) {
	tpl, err := Parse("{year}/{year}_{counter:4}-{name:lower}{ext:lower}")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		want int
		ok   bool
	}{
		{"2021_0007-img_1.jpg", 7, true},
		{"2021_0007-IMG_1.JPG", 7, true},    // made by hand or by an older :upper template
		{"2021_0012-img_1-2.jpg", 12, true}, // conflict suffix
		{"2021_123456-x.jpg", 123456, true}, // past the padding width
		{"holiday.jpg", 0, false},
		{"2021_-x.jpg", 0, false},
		{"2021_9223372036854775807-x.jpg", 0, false}, // would overflow the next one
		{"2021_1000000001-x.jpg", 0, false},
	}
	for _, c := range cases {
		n, ok := tpl.CounterOf(c.name)
		if n != c.want || ok != c.ok {
			t.Errorf("CounterOf(%q) = %d, %v; want %d, %v", c.name, n, ok, c.want, c.ok)
		}
	}
	named, _ := Parse("{year}/{name}_{counter}{ext}")
	if n, ok := named.CounterOf("IMG_1234_1.jpg"); n != 1 || !ok {
		t.Errorf("{name}_{counter}: CounterOf(IMG_1234_1.jpg) = %d, %v; want 1 (the name keeps its own digits)", n, ok)
	}
	plain, _ := Parse("{name}{ext}")
	if _, ok := plain.CounterOf("IMG_0007.JPG"); ok {
		t.Error("a template without {counter} read a counter")
	}
}

func TestCounterOfRoundTripsExpand(t *testing.T) {
	tpl, err := Parse("{date}/{counter:3}_{make}{ext}")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 42, 999, 1000} {
		_, name := tpl.Expand(Fields{Name: "x", Ext: ".HEIC", Make: "Apple", Counter: n})
		if got, ok := tpl.CounterOf(name); !ok || got != n {
			t.Errorf("Expand gave %q; CounterOf = %d, %v; want %d", name, got, ok, n)
		}
	}
}
