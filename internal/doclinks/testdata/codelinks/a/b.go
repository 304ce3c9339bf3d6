package a

func (T) N() {}

func moved() {}
