package retrieve

import "testing"

func TestMatchOne(t *testing.T) {
	tests := []struct {
		pat, path string
		want      bool
	}{
		{"src/**", "src/a/b.ts", true},
		{"src/**/*.ts", "src/a/b.ts", true},
		{"src/**/*.ts", "lib/a/b.ts", false},
		{"*.ts", "src/a/b.ts", true},
		{"*.ts", "src/a/b.go", false},
		{"src/auth", "src/auth/auth.ts", true},
		{"src/auth/", "src/auth/auth.ts", true},
		{"src/auth", "src/authority/x.ts", false},
		{"./src/auth/auth.ts", "src/auth/auth.ts", true},
		{"src/{auth,lib}/*.ts", "src/lib/jwt-utils.ts", true},
		{"", "a", false},
	}
	for _, tt := range tests {
		if got := matchOne(tt.pat, tt.path); got != tt.want {
			t.Errorf("matchOne(%q, %q) = %v, want %v", tt.pat, tt.path, got, tt.want)
		}
	}
}
