module starter

go 1.19
