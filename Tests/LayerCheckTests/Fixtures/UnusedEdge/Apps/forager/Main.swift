import ArgumentParser
internal import Scripting
